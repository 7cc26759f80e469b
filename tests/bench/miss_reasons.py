# SPDX-License-Identifier: BSD-3-Clause
"""Why a target of make bench is missed, where the reason is known.

The instruction counts printed beside a MISS (alloc_callgrind.py,
apps_callgrind.py) say how far; these sentences say what is in the gap
and what closing it would take, from the analysis in docs/perf/
issue-17.md. bench.sh prints them under the MISS lines of its target
list, bench-readme.py in the perf file. reason() answers only for a row
listed here; a row missed for a reason not known yet gets none.
"""

import re

# (bench regex, case regex, variant regex, reason): the first match wins.
REASONS = [
    ('frag', r'^op ', r'^npool napi$',
     'napi alloc + free is 60-64 instructions an op against the stock '
     'mbuf\'s 104 (0.3-0.4x its time), at 1-3 instructions a line: two '
     'lcore-slot lookups (6), the carve and its commit (~14), the chunk '
     'lookup of the free (8), the bias test (4), the counters (6), the '
     'loop (6). 2 ns is an absolute bound; at the IPC measured here it '
     'would take about 40 instructions.'),
    ('frag', r'^burst32 ', r'^npool napi$',
     'npool has no bulk fragment API (nor has the kernel): the burst is '
     '32 single allocations and frees, 68-76 instructions an op against '
     'rte_pktmbuf_alloc_bulk/free_bulk\'s 60.'),
    ('frag', r'', r'^guarded - napi$',
     'the bound is the kernel\'s (Duyck: -11 ns a packet without '
     'local_irq_save/restore). Userspace masks no interrupts: the guarded '
     'flavour is the napi core inside an uncontended spinlock, ~50 '
     'instructions (about 4 ns) more.'),
    ('pkt', r'^op len 1500$', r'^napi_alloc\+consume$',
     'one 1500 B npool packet is two objects, a head and a fragment, '
     'each with its own get and put, and DPDK\'s extbuf contract '
     '(shinfo and head fields on attach, the head reset to direct on '
     'consume): 201 instructions against the stock mbuf\'s 103.'),
    ('pkt', r'^burst32 len 1500$', r'^napi_alloc\+consume$',
     'a 1500 B npool packet is a head and a fragment: 117 instructions a '
     'packet per burst against the stock mbuf\'s 60 (142 before 0cba8bc '
     'batched the fragment frees and the one-length burst). What is left '
     'is the extbuf contract (attach 17, head checks and reset 28), the '
     'carve (14) and its refills (7). The time ratio sits below the '
     'instruction ratio (callgrind\'s cache model: npool no D1 miss, the '
     'stock pool 3.6 a packet) and moves 1.4-1.8x between runs of the '
     'same binary on this host.'),
    ('pkt', r'^pmd bulk32\+free1$', r'^npool RX pool$',
     'both pools run DPDK\'s own inline mempool cache (86 instructions a '
     'packet each); npool\'s ops are reached only when the cache refills '
     'or flushes, so 1.0x is what the design gives.'),
    ('fwd', r'^pcap->null (64B|IMIX|rand60|ack60 padded)( native)?$',
     r'^npool-fwd npool cb0$',
     'npool-fwd makes the checks l3fwd skips (RFC 1812, Linux\'s '
     'ip_rcv_core and martian source): 40 of the 91 instructions a '
     'packet of its one pass, against the 18 of l3fwd\'s software ptype '
     'parse (callgrind per instruction, default build): the header '
     'checksum 11, frame and IP lengths with padding, MTU and TTL 13, '
     'the martian source 6, one segment, port and pkt_len 7, the L2 '
     'destination beside EtherType and version 3. On hugepages the rate '
     'ratio follows the instruction ratio (the budget\'s "l3fwd-lpm total '
     '/ total", 0.92); checks over four headers at once would save about '
     '10 of the 40 (docs/perf/issue-27.md).'),
    ('fwd', r'^pcap->null (64B|IMIX|rand60|ack60 padded)( native)?$',
     r'^npool cb256 / cb0$',
     'copy-break costs ~69 instructions a packet over none (callgrind): '
     'the data in 32-byte steps 16, the metadata and dynamic fields '
     'rte_pktmbuf_copy() keeps 12, the rearm word and data pointer 9, '
     'the slot bookkeeping 8, whether the RX mbufs go back in bulk 7, '
     'the bulk get and put 10, the length and refcnt test in the pass '
     '7. On pcap -> null the copy is pure cost; its gain is the memory '
     'packets that wait hold.'),
    ('fwd', r'^pcap->null 64B fib( native)?$', r'^npool-fwd fib cb0$',
     'the same checks as with LPM, over rte_fib\'s bulk lookup: the '
     'rate ratio follows the instruction ratio (see the counts).'),
    ('fwd', r'^pcap->null 64B TTL-1 1:1', r'^npool-fwd icmp on$',
     'with --port-addr every packet is also tested against the router\'s '
     'own addresses, and every TTL-1 frame (half of them) takes the ICMP '
     'rate limiter before it is dropped: 867 instructions a packet '
     'against 829 (0.956x in instructions). Earlier runs gave 0.96-0.97x: '
     'the bound is inside this host\'s spread.'),
    ('(drop|fwd)', r' 2q', r'2lc/1lc',
     'the instructions a packet are the same on one and two lcores (see '
     'the counts), and npool\'s pool makes no ring operation on either '
     'in steady state (callgrind): two forwarding lcores on this 2-vCPU '
     'guest share it with the sleeping main lcore, the telemetry thread '
     'and the host, so the scaling is the machine\'s: l3fwd\'s own moves '
     '1.6-1.9x between runs, and on --no-huge npool-fwd reaches 1.8-2x.'),
    ('drop', r'^net_null 64B$', r'^npool-drop npool$',
     'on 4 KiB pages (--no-huge) both apps wait on TLB misses of the '
     'packet memory: npool-drop runs 54 instructions a packet against '
     'testpmd\'s 87 and is 1.6-1.7x on hugepages.'),
    ('fwd', r'^pcap->null 64B em$', r'^npool-fwd em cb0$',
     'at 512 instructions a packet against l3fwd-em\'s 504, the two are '
     'level within this host\'s run-to-run spread (0.99-1.05x).'),
]


def reason(bench, case, variant):
    """The known reason for a missed target of (bench, case, variant),
    or None."""
    for b, c, v, text in REASONS:
        if re.fullmatch(b, bench) and re.search(c, case) and \
                re.search(v, variant):
            return text
    return None


def instr_list(variants):
    """'variant N, variant N': the instructions a packet (or an op) of each
    variant of a callgrind result (apps_callgrind.py, alloc_callgrind.py),
    '?' with the error where a variant has no count."""
    return ', '.join(
        '%s %.0f' % (v['variant'], v['ir_per_pkt'])
        if v.get('ir_per_pkt') is not None else
        '%s ?%s' % (v['variant'], ' (%s)' % v['error'] if v.get('error')
                    else '') for v in variants)
