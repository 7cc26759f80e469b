# SPDX-License-Identifier: BSD-3-Clause
"""Classic pcap files: read and write, both byte orders, micro- and
nanosecond time stamps (python3 stdlib only).

Only the classic format (magic a1b2c3d4 / a1b23c4d in either byte order) is
handled; pcapng is refused with an error naming the file.

What DPDK's net_pcap hands the application is not always the stored bytes:
libpcap (sf-pcap.c) clamps a record's captured length to the file's snapshot
length, and a file whose snapshot length is 0 or above the link type's
maximum gets that maximum (262144 for Ethernet).  `libpcap_frames()` models
that, so a test can concatenate captures into one file and still know the
frame each record becomes.
"""

import struct

LINKTYPE_ETHERNET = 1
MAGIC_USEC = 0xA1B2C3D4
MAGIC_NSEC = 0xA1B23C4D
PCAPNG_MAGIC = 0x0A0D0D0A
# libpcap's max_snaplen_for_dlt() for DLT_EN10MB
MAX_SNAPLEN_ETHERNET = 262144

FILE_HDR = struct.Struct('IHHiIII')
REC_HDR = struct.Struct('IIII')


class PcapError(Exception):
    """A file that is not a readable classic pcap file."""


class Record:
    """One packet record: time stamp (seconds, fraction in ns), the stored
    bytes and the original length on the wire."""

    __slots__ = ('ts_sec', 'ts_nsec', 'data', 'orig_len')

    def __init__(self, data, orig_len=None, ts_sec=0, ts_nsec=0):
        self.data = bytes(data)
        self.orig_len = len(self.data) if orig_len is None else orig_len
        self.ts_sec = ts_sec
        self.ts_nsec = ts_nsec

    @property
    def incl_len(self):
        return len(self.data)

    def __repr__(self):
        return 'Record(incl=%d, orig=%d)' % (len(self.data), self.orig_len)


class Pcap:
    """A parsed pcap file."""

    def __init__(self, records=None, linktype=LINKTYPE_ETHERNET,
                 snaplen=MAX_SNAPLEN_ETHERNET, byteorder='<', nsec=False,
                 version=(2, 4)):
        self.records = list(records or [])
        self.linktype = linktype
        self.snaplen = snaplen
        self.byteorder = byteorder
        self.nsec = nsec
        self.version = version

    def __len__(self):
        return len(self.records)

    def __iter__(self):
        return iter(self.records)


def parse(buf, name='<buffer>'):
    """Parse the bytes of a classic pcap file into a Pcap."""
    if len(buf) < FILE_HDR.size:
        raise PcapError('%s: %d bytes, shorter than a pcap file header'
                        % (name, len(buf)))
    le_magic = struct.unpack_from('<I', buf)[0]
    if le_magic == PCAPNG_MAGIC:
        raise PcapError('%s: pcapng is not supported, only classic pcap'
                        % name)
    order = None
    for bo in ('<', '>'):
        magic = struct.unpack_from(bo + 'I', buf)[0]
        if magic in (MAGIC_USEC, MAGIC_NSEC):
            order = bo
            break
    if order is None:
        raise PcapError('%s: bad magic 0x%08x' % (name, le_magic))
    fh = struct.Struct(order + FILE_HDR.format)
    magic, vmaj, vmin, _tz, _sig, snaplen, linktype = fh.unpack_from(buf)
    nsec = magic == MAGIC_NSEC
    rh = struct.Struct(order + REC_HDR.format)
    pcap = Pcap(linktype=linktype & 0x03FFFFFF, snaplen=snaplen,
                byteorder=order, nsec=nsec, version=(vmaj, vmin))
    off = fh.size
    while off < len(buf):
        if off + rh.size > len(buf):
            raise PcapError('%s: record header cut short at offset %d'
                            % (name, off))
        ts_sec, ts_frac, incl, orig = rh.unpack_from(buf, off)
        off += rh.size
        if off + incl > len(buf):
            raise PcapError('%s: record at offset %d claims %d bytes, %d left'
                            % (name, off - rh.size, incl, len(buf) - off))
        pcap.records.append(Record(buf[off:off + incl], orig, ts_sec,
                                   ts_frac if nsec else ts_frac * 1000))
        off += incl
    return pcap


def read(path):
    """Read a classic pcap file (either byte order, us or ns stamps)."""
    with open(path, 'rb') as f:
        return parse(f.read(), path)


def serialize(records, linktype=LINKTYPE_ETHERNET,
              snaplen=MAX_SNAPLEN_ETHERNET, byteorder='<', nsec=False):
    """The bytes of a classic pcap file holding `records` (Record objects or
    plain bytes-like frames)."""
    fh = struct.Struct(byteorder + FILE_HDR.format)
    rh = struct.Struct(byteorder + REC_HDR.format)
    out = [fh.pack(MAGIC_NSEC if nsec else MAGIC_USEC, 2, 4, 0, 0, snaplen,
                   linktype)]
    for i, rec in enumerate(records):
        if not isinstance(rec, Record):
            rec = Record(rec, ts_sec=i // 1000000, ts_nsec=(i % 1000000) * 1000)
        frac = rec.ts_nsec if nsec else rec.ts_nsec // 1000
        out.append(rh.pack(rec.ts_sec, frac, len(rec.data), rec.orig_len))
        out.append(rec.data)
    return b''.join(out)


def write(path, records, **kw):
    """Write a classic pcap file; keyword arguments as serialize()."""
    with open(path, 'wb') as f:
        f.write(serialize(records, **kw))


def write_empty(path):
    """An empty capture: the 24-byte file header and nothing else."""
    write(path, [])


def effective_snaplen(pcap):
    """The snapshot length libpcap enforces when reading `pcap`."""
    if pcap.snaplen == 0 or pcap.snaplen > MAX_SNAPLEN_ETHERNET:
        return MAX_SNAPLEN_ETHERNET
    return pcap.snaplen


def libpcap_frames(pcap):
    """The frames libpcap's pcap_next_ex() returns for this file: records
    longer than the snapshot length are cut to it (sf-pcap.c)."""
    snap = effective_snaplen(pcap)
    return [r.data[:snap] for r in pcap.records]
