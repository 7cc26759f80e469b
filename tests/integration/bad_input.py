#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Bad command lines and files for npool-fwd: each must end with exit
status 2 (no signal, no time-out), one error line in the one format,
"npool-fwd: <flag>: <what>" or "npool-fwd: <file>:<line>: <what>" (route,
EM, --mroute and --neigh-file files alike), then the usage.  A good command
line on the same vdevs must run and exit 0 (control).  Route files with
routes to ports outside -p load, as l3fwd's do, with a warning naming
file:line for each route left out.

  bad_input.py --app build/apps/fwd/npool-fwd
Exit 0 pass, 1 fail, 77 skip.
"""

import argparse
import concurrent.futures
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'lib'))

import harness  # noqa: E402

VDEVS = ['net_null0', 'net_null1']
TIMEOUT = 60
# bad command lines run at once (2 cores; each mostly EAL start-up)
PARALLEL = 4

# name, app arguments ({v4}/{v6}/{other} = route files written below),
# regex the output must contain (case-insensitive)
ROUTE_FILES = {
    'good4': '# ok\nR0.0.0.0/0 0\nR198.18.0.0/15 1\n',
    'good6': 'R::/0 1\n',
    'em5fields4': 'R198.18.1.2 198.18.0.9 9 9 0x11\n',
    'emproto6': 'R2001:2::1 2001:2::2 9 9 0x111 0\n',
    'badline4': '# comment\nR198.18.0.0/15 0\nR198.18.0.0/15\n',
    'badaddr4': 'R198.18.0.0/15 0\n\nR300.18.0.0/15 0\n',
    'baddepth4': 'R198.18.0.0/33 0\n',
    'badlead4': 'R198.18.0.0/15 0\nX198.18.0.0/15 0\n',
    'badport4': 'R198.18.0.0/15 zero\n',
    'v6in4': 'R2001:2::/48 0\n',
    'badline6': 'R::/0 0\nR2001:2::/129 1\n',
    'badaddr6': 'R2001:2::/48 0\nR2001:::2::/48 1\n',
    'outside4': '# port 1 is not in -p 0x1\nR198.18.0.0/15 1\n',
    'outside6': 'R::/0 0\nR2001:2::/48 1\n',
    'port256': 'R198.18.0.0/15 0\nR198.19.0.0/16 256\n',
    # NUL bytes: a whole file of them, one inside a rule, one in a long
    # comment (fgets() would hide all three)
    'nulls4': '\0' * 100000,
    'nulrule4': '# ok\nR10.0.0.0/8 1\0garbage\n',
    'nulcomment4': 'R0.0.0.0/0 0\n#\0' + 'x' * 5000 + '\n',
    # --mroute files: a good route, then the bad one
    'mr_noto': 'mroute from 0 group 225.1.2.3 to 1\nmroute from 0 group '
               '225.1.2.4 1\n',
    'mr_llgroup': 'mroute from 0 group 224.0.0.251 to 1\n',
    'mr_ll6': '# ok\nmroute from 0 group ff02::5 to 1\n',
    'mr_src': 'mroute from 0 source 224.1.1.1 group 225.1.2.3 to 1\n',
    'mr_fam': 'mroute from 0 source 2001:2::1 group 225.1.2.3 to 1\n',
    'mr_inout': 'mroute from 0 group 225.1.2.3 to 1 0\n',
    'mr_twice': 'mroute from 0 group 225.1.2.3 to 1 1\n',
    'mr_port': 'mroute from 0 group 225.1.2.3 to 2\n',
    'mr_ttl': 'mroute from 0 group 225.1.2.3 to 1:255\n',
    'mr_dup': 'mroute from 0 group 225.1.2.3 to 1\n\n'
              'mroute from 1 group 225.1.2.3 to 0\n',
    # --neigh-file files
    'neigh_mac': '10.0.0.1 lladdr 02:00:00:00:00:01 dev 0\n'
                 '10.0.0.2 lladdr zz dev 0\n',
    'neigh_port': '# port 1 is not in -p 0x1\n'
                  '10.0.0.1 lladdr 02:00:00:00:00:01 dev 1\n',
    # 1024 permanent ARP neighbours (FWD_NEIGH_PERM_MAX), one of them
    # twice and 1024 NDP ones: they fit; the 1025th address does not
    'neigh_many': '10.0.0.0 lladdr 02:00:00:00:00:02 dev 0\n' + ''.join(
        '10.0.%d.%d lladdr 02:00:00:00:00:01 dev 0\n'
        '2001:db8::%x lladdr 02:00:00:00:00:01 dev 1\n'
        % (i >> 8, i & 255, i) for i in range(1024)) +
    '10.0.4.0 lladdr 02:00:00:00:00:01 dev 1\n',
    # a route by a gateway on no port's prefix: refused by the control
    # side, after the file parsed
    'gw_nolink': '# no --port-addr\nR10.0.0.0/8 via 192.0.2.1\n',
}

# --config with one queue more than an lcore may poll (16)
TOO_MANY_QUEUES = ','.join('(0,%d,0)' % q for q in range(17))

CASES = [
    ('unknown flag', ['-p', '0x3', '--bogus-flag'],
     r'--bogus-flag: unknown option'),
    ('portmask not hex', ['-p', 'xyz'],
     r"-p: 'xyz' is not a hexadecimal port mask"),
    ('portmask 0', ['-p', '0'], r'-p: the port mask selects no port'),
    ('portmask names an absent port', ['-p', '0x10'],
     r'-p: port 4 does not exist \(2 ports probed\)'),
    ('no portmask', [], r'-p: a port mask is required'),
    ('--config cut short', ['-p', '0x3', '--config', '(0,0'],
     r"--config: bad entry at '\(0,0' \(want"),
    ('--config not a triple', ['-p', '0x3', '--config', '(0,0,0,0)'],
     r"--config: bad entry at '\(0,0,0,0\)' \(want"),
    ('--config lcore not enabled', ['-p', '0x3', '--config', '(0,0,1)'],
     r'--config: lcore 1 is not enabled \(EAL -l/-c\)'),
    ('--config port outside portmask', ['-p', '0x1', '--config', '(1,0,0)'],
     r'--config: port 1 is not enabled in -p'),
    ('--lookup unknown', ['-p', '0x3', '--lookup', 'hash'],
     r"--lookup: 'hash' is not supported \(lpm, fib or em\)"),
    ('--pool unknown', ['-p', '0x3', '--pool', 'bogus'],
     r"--pool: 'bogus' is not npool or mempool"),
    ('--copybreak not a number', ['-p', '0x3', '--copybreak', 'abc'],
     r"--copybreak: 'abc' is not a number \(decimal, or"),
    ('--eth-dest bad MAC', ['-p', '0x3', '--eth-dest', '0,zz:00:00:00:00:01'],
     r"--eth-dest: 'zz:00:00:00:00:01' is not a MAC address"),
    ('--eth-dest no port', ['-p', '0x3', '--eth-dest', '02:00:00:00:00:01'],
     r"--eth-dest: '02:00:00:00:00:01' is not PORT,MAC"),
    ('--port-addr no address', ['-p', '0x3', '--port-addr', '0,'],
     r"--port-addr: '0,' is not PORT,ADDR/LEN\[,ADDR/LEN\.\.\.\]"),
    ('--port-addr empty entry', ['-p', '0x3', '--port-addr',
                                 '0,,198.18.0.1/24'],
     r"--port-addr: '0,,198\.18\.0\.1/24' is not"),
    ('--port-addr trailing comma', ['-p', '0x3', '--port-addr',
                                    '0,198.18.0.1/24,'],
     r"--port-addr: '0,198\.18\.0\.1/24,' is not"),
    ('--port-addr bad IPv4', ['-p', '0x3', '--port-addr', '0,198.18.0.300/24'],
     r"--port-addr: '198\.18\.0\.300' is not an IPv4 address"),
    ('--port-addr bad IPv6', ['-p', '0x3', '--port-addr', '0,2001:2:::1/64'],
     r"--port-addr: '2001:2:::1' is not an IPv6 address"),
    ('--port-addr no length', ['-p', '0x3', '--port-addr', '0,198.18.0.1'],
     r"--port-addr: '198\.18\.0\.1' is not ADDR/LEN"),
    ('--port-addr length 33', ['-p', '0x3', '--port-addr', '0,198.18.0.1/33'],
     r'--port-addr: 33 is out of range 1\.\.32'),
    ('--port-addr multicast', ['-p', '0x3', '--port-addr', '0,224.0.0.1/24'],
     r'--port-addr: 224\.0\.0\.1 is not a unicast address a port'),
    ('--port-addr link-local', ['-p', '0x3', '--port-addr', '0,fe80::1/64'],
     r'--port-addr: fe80::1 is not a unicast address a port can'),
    ('--port-addr no address', ['-p', '0x3', '--port-addr', '0'],
     r"--port-addr: '0' is not PORT,ADDR/LEN\[,ADDR/LEN\.\.\.\]"),
    ('--port-addr port 40', ['-p', '0x3', '--port-addr', '40,198.18.0.1/24'],
     r'--port-addr: 40 is out of range 0\.\.31'),
    ('--port-addr port outside -p', ['-p', '0x1', '--port-addr',
                                     '1,198.18.0.1/24'],
     r'--port-addr: port 1 is not enabled in -p'),
    ('--port-addr duplicate', ['-p', '0x3', '--port-addr', '0,198.18.0.1/24',
                               '--port-addr', '1,198.18.0.1/24'],
     r'--port-addr: 198\.18\.0\.1 given twice \(port 0 and port 1\)'),
    ('--port-addr duplicate IPv6', ['-p', '0x3', '--port-addr',
                                    '0,2001:2::1/64,2001:2::1/64'],
     r'--port-addr: 2001:2::1 given twice \(port 0 and port 0\)'),
    ('--port-mtu no port', ['-p', '0x3', '--port-mtu', '1400'],
     r"--port-mtu: '1400' is not PORT,BYTES"),
    ('--port-mtu port outside -p', ['-p', '0x1', '--port-mtu', '1,1400'],
     r'--port-mtu: port 1 is not enabled in -p'),
    ('--port-mtu above the ports\' MTU', ['-p', '0x3', '--port-mtu',
                                          '1,1600'],
     r"--port-mtu: 1600 for port 1 is above the ports' MTU"),
    ('--port-mtu 67', ['-p', '0x3', '--port-mtu', '1,67'],
     r'--port-mtu: 67 is out of range 68\.\.65535'),
    ('--icmp-ratelimit not a number', ['-p', '0x3', '--icmp-ratelimit', 'x'],
     r"--icmp-ratelimit: 'x' is not a number \(decimal, or"),
    ('--icmp-msgs-burst 0', ['-p', '0x3', '--icmp-msgs-burst', '0'],
     r'--icmp-msgs-burst: 0 is out of range 1\.\.4294967295'),
    ('--mtu too small', ['-p', '0x3', '--mtu', '10'],
     r'--mtu: 10 is out of range 68\.\.65535'),
    ('--idle-exit negative', ['-p', '0x3', '--idle-exit', '-5'],
     r"--idle-exit: '-5' is not a number \(decimal, or"),
    ('--rule_ipv4 missing file', ['-p', '0x3', '--rule_ipv4',
                                  '/nonexistent/npool-routes.cfg'],
     r'--rule_ipv4: /nonexistent/npool-routes\.cfg: No such file'),
    ('route line without port', ['-p', '0x3', '--rule_ipv4', '{badline4}'],
     r'{badline4}:3: bad route line \(want R<prefix>/<depth>'),
    ('route address invalid', ['-p', '0x3', '--rule_ipv4', '{badaddr4}'],
     r'{badaddr4}:3: bad IPv4 prefix'),
    ('route depth 33', ['-p', '0x3', '--rule_ipv4', '{baddepth4}'],
     r'{baddepth4}:1: bad depth \(0\.\.32\)'),
    ('route line not starting with R', ['-p', '0x3', '--rule_ipv4',
                                        '{badlead4}'],
     r'{badlead4}:2: bad route line \(want R<prefix>/<depth>'),
    ('route port not a number', ['-p', '0x3', '--rule_ipv4', '{badport4}'],
     r'{badport4}:1: bad port \(0\.\.255\)'),
    ('IPv6 route in the IPv4 file', ['-p', '0x3', '--rule_ipv4', '{v6in4}'],
     r'{v6in4}:1: bad IPv4 prefix'),
    ('IPv6 route depth 129', ['-p', '0x3', '--rule_ipv6', '{badline6}'],
     r'{badline6}:2: bad depth \(0\.\.128\)'),
    ('IPv6 route address invalid', ['-p', '0x3', '--rule_ipv6',
                                    '{badaddr6}'],
     r'{badaddr6}:2: bad IPv6 prefix'),
    ('route port above 255', ['-p', '0x3', '--rule_ipv4', '{port256}'],
     r'{port256}:2: bad port \(0\.\.255\)'),
    ('route file of NUL bytes', ['-p', '0x3', '--rule_ipv4', '{nulls4}'],
     r'{nulls4}:1: NUL byte in the line \(not a text file\?\)'),
    ('NUL byte inside a route', ['-p', '0x3', '--rule_ipv4', '{nulrule4}'],
     r'{nulrule4}:2: NUL byte in the line \(not a text file\?\)'),
    ('NUL byte in a long comment', ['-p', '0x3', '--rule_ipv4',
                                    '{nulcomment4}'],
     r'{nulcomment4}:2: NUL byte in the line \(not a text file\?\)'),
    ('route file is a directory', ['-p', '0x3', '--rule_ipv4', '{dir}'],
     r'--rule_ipv4: {dir}: Is a directory'),
    ('--help with a value', ['-p', '0x3', '--help=1'],
     r'--help: takes no value'),
    ('--duration hex float', ['-p', '0x3', '--duration', '0x1p1'],
     r"--duration: '0x1p1' is not a number"),
    ('--duration exponent', ['-p', '0x3', '--duration', '1e1'],
     r"--duration: '1e1' is not a number"),
    ('--stats 0x without a digit', ['-p', '0x3', '--stats', '0x'],
     r"--stats: '0x' is not a number \(decimal, or"),
    ('--config 17 queues on one lcore', ['-p', '0x1', '--config',
                                         TOO_MANY_QUEUES],
     r'--config: lcore 0 has more than 16 queues \(the limit'),
    ('--nb-mbufs 0', ['-p', '0x3', '--nb-mbufs', '0'],
     r'--nb-mbufs: 0 is out of range 1\.\.16777216'),
    ('--nb-chunks 0', ['-p', '0x3', '--nb-chunks', '0'],
     r'--nb-chunks: 0 is out of range 1\.\.1048576'),
    ('--nb-small-chunks above 2^20', ['-p', '0x3', '--nb-small-chunks',
                                      '1048577'],
     r'--nb-small-chunks: 1048577 is out of range 0\.\.1048576'),
    ('--nb-mid above 2^24', ['-p', '0x3', '--nb-mid', '16777217'],
     r'--nb-mid: 16777217 is out of range 0\.\.16777216'),
    ('--nb-heads below 64', ['-p', '0x3', '--nb-heads', '63'],
     r'--nb-heads: 63 is out of range 64\.\.16777216'),
    # l3fwd's options
    ('--rx-queue-size 0', ['-p', '0x3', '--rx-queue-size', '0'],
     r'--rx-queue-size: 0 is out of range 1\.\.65535'),
    ('--rx-queue-size above 65535', ['-p', '0x3', '--rx-queue-size',
                                     '65536'],
     r'--rx-queue-size: 65536 is out of range 1\.\.65535'),
    ('--tx-queue-size not a number', ['-p', '0x3', '--tx-queue-size',
                                      '1k'],
     r"--tx-queue-size: '1k' is not a number \(decimal, or"),
    ('--tx-queue-size 0', ['-p', '0x3', '--tx-queue-size', '0'],
     r'--tx-queue-size: 0 is out of range 1\.\.65535'),
    ('--max-pkt-len below 86', ['-p', '0x3', '--max-pkt-len', '64'],
     r'--max-pkt-len: 64 is out of range 86\.\.9600'),
    ('--max-pkt-len above 9600', ['-p', '0x3', '--max-pkt-len', '9601'],
     r'--max-pkt-len: 9601 is out of range 86\.\.9600'),
    ('--max-pkt-len after --mtu', ['-p', '0x3', '--mtu', '9000',
                                   '--max-pkt-len', '9018'],
     r'--max-pkt-len: not together with --mtu \(both set the MTU;'),
    ('--mtu after --max-pkt-len', ['-p', '0x3', '--max-pkt-len', '9018',
                                   '--mtu', '9000'],
     r'--mtu: not together with --max-pkt-len \(both set'),
    ('--no-numa with a value', ['-p', '0x3', '--no-numa=1'],
     r'--no-numa: takes no value'),
    ('--parse-ptype with a value', ['-p', '0x3', '--parse-ptype=1'],
     r'--parse-ptype: takes no value'),
    ('-E with --port-addr', ['-p', '0x3', '-E', '--port-addr',
                             '0,198.18.0.1/24'],
     r'--port-addr: not with --lookup em \(its 5-tuple table'),
    ('--lookup em, an LPM route file', ['-p', '0x3', '--lookup', 'em',
                                        '--rule_ipv4', '{good4}'],
     r'{good4}:2: bad EM route line \(not R<dst> <src> <dport>'),
    ('--lookup em, 5 fields', ['-p', '0x3', '--lookup', 'em',
                               '--rule_ipv4', '{em5fields4}'],
     r'{em5fields4}:1: bad EM route line \(not R<dst> <src> <dport>'),
    ('--lookup em, bad protocol', ['-p', '0x3', '--lookup', 'em',
                                   '--rule_ipv6', '{emproto6}'],
     r'{emproto6}:1: bad EM route line \(bad port, protocol or'),
    ('--fpm with --lookup em', ['-p', '0x3', '--lookup', 'em',
                                '--fpm', '127.0.0.1:1'],
     r'--fpm: live routes need --lookup lpm or fib \(an'),
    ('--lookup acl', ['-p', '0x3', '--lookup', 'acl'],
     r"--lookup: 'acl' is not supported \(lpm, fib or em\)"),
    ('--ipv6 (l3fwd EM only)', ['-p', '0x3', '--ipv6'],
     r'--ipv6: unknown option'),
    # --mroute (docs/apps/npool-fwd.md, multicast routing)
    ('--mroute missing file', ['-p', '0x3', '--mroute', '/nonexistent/mr'],
     r'--mroute: /nonexistent/mr: No such file or directory'),
    ('--mroute without "to"', ['-p', '0x3', '--mroute', '{mr_noto}'],
     r'{mr_noto}:2: bad route line \(want mroute from PORT'),
    ('--mroute link-local group', ['-p', '0x3', '--mroute',
                                   '{mr_llgroup}'],
     r'{mr_llgroup}:1: not a routable group \(224\.0\.0\.0/4 but'),
    ('--mroute IPv6 link-local scope', ['-p', '0x3', '--mroute',
                                        '{mr_ll6}'],
     r'{mr_ll6}:2: not a routable group \(ff00::/8, scope above'),
    ('--mroute multicast source', ['-p', '0x3', '--mroute', '{mr_src}'],
     r'{mr_src}:1: not a unicast source'),
    ('--mroute families differ', ['-p', '0x3', '--mroute', '{mr_fam}'],
     r'{mr_fam}:1: source and group of different families'),
    ('--mroute output = input', ['-p', '0x3', '--mroute', '{mr_inout}'],
     r'{mr_inout}:1: output port is the input port'),
    ('--mroute output twice', ['-p', '0x3', '--mroute', '{mr_twice}'],
     r'{mr_twice}:1: output port given twice'),
    ('--mroute port outside -p', ['-p', '0x3', '--mroute', '{mr_port}'],
     r'{mr_port}:1: port not enabled in -p'),
    ('--mroute TTL 255', ['-p', '0x3', '--mroute', '{mr_ttl}'],
     r'{mr_ttl}:1: bad TTL threshold \(1\.\.254\)'),
    ('--mroute route twice', ['-p', '0x3', '--mroute', '{mr_dup}'],
     r'{mr_dup}:3: route given again \(before at line 1\)'),
    ('--bc-forwarding 2', ['-p', '0x3', '--bc-forwarding', '2'],
     r'--bc-forwarding: 2 is out of range 0\.\.1'),
    ('--icmp-echo-ignore-broadcasts x', ['-p', '0x3',
                                         '--icmp-echo-ignore-broadcasts',
                                         'x'],
     r"--icmp-echo-ignore-broadcasts: 'x' is not a number \(decimal, or"),
    ('--forward-otherhost with a value', ['-p', '0x3',
                                          '--forward-otherhost=1'],
     r'--forward-otherhost: takes no value'),
    ('unknown short flag', ['-p', '0x3', '-x'], r'-x: unknown option'),
    ('-p without a value', ['-p'], r'-p: needs a value'),
    ('stray argument', ['-p', '0x3', 'stray'],
     r'stray: unexpected argument'),
    ('--fpm-if without --fpm', ['-p', '0x3', '--fpm-if', '0,eth0'],
     r'--fpm-if: only with --fpm'),
    ('--neigh without a MAC', ['-p', '0x3', '--neigh', '0,10.0.0.1'],
     r"--neigh: '0,10\.0\.0\.1': want PORT,ADDR,MAC"),
    ('--neigh port outside -p', ['-p', '0x1', '--neigh',
                                 '1,10.0.0.1,02:00:00:00:00:01'],
     r'--neigh: port 1 is not enabled in -p'),
    ('--neigh-file missing file', ['-p', '0x3', '--neigh-file',
                                   '/nonexistent/neigh'],
     r'--neigh-file: /nonexistent/neigh: No such file'),
    ('--neigh-file bad MAC', ['-p', '0x3', '--neigh-file', '{neigh_mac}'],
     r'{neigh_mac}:2: bad MAC'),
    ('--neigh-file port outside -p', ['-p', '0x1', '--neigh-file',
                                      '{neigh_port}'],
     r'{neigh_port}:2: port 1 is not enabled in -p'),
    ('--neigh-file more than a table holds', ['-p', '0x3', '--neigh-file',
                                              '{neigh_many}'],
     r'{neigh_many}:2050: more than the 1024 permanent ARP neighbours a '
     r'table holds'),
    ('--neigh more than a table holds', ['-p', '0x3'] + [
        a for i in range(1025)
        for a in ('--neigh', '1,2001:db8::%x,02:00:00:00:00:01' % i)],
     r'--neigh: more than the 1024 permanent NDP neighbours a table holds'),
    ('route by a gateway on no link', ['-p', '0x3', '--rule_ipv4',
                                       '{gw_nolink}'],
     r"{gw_nolink}:2: gateway on no enabled port's link"),
    ('--lookup em, a directory', ['-p', '0x3', '-E', '--rule_ipv6', '{dir}'],
     r'--rule_ipv6: {dir}: Is a directory'),
    ('--mroute file is a directory', ['-p', '0x3', '--mroute', '{dir}'],
     r'--mroute: {dir}: Is a directory'),
]

# Route files naming ports outside -p load (l3fwd leaves those routes
# out): exit 0, one warning per route left out naming file:line, and the
# summary line counting them. name, -p, flag, file, [(line, route, port)],
# routes loaded
SKIPPED = [
    ('IPv4 route to a port outside the portmask', '0x1', '--rule_ipv4',
     'outside4', [(2, '198.18.0.0/15', 1)], 0),
    ('IPv6 route to a port outside the portmask', '0x1', '--rule_ipv6',
     'outside6', [(2, '2001:2::/48', 1)], 1),
]

CRASH_RE = re.compile(r'segmentation fault|PANIC|core dumped|'
                      r'AddressSanitizer|double free', re.I)


def run_case(app, work, args):
    cmd = [app] + harness.eal_args(work.new_prefix(), VDEVS) + ['--'] + args
    return harness.run(cmd, TIMEOUT)


def numbers_problems(app, work):
    """Numbers are decimal or 0x hex: "010" is ten (not octal eight) and
    "08" eight (not an error)."""
    jpath = work.file('numbers.json')
    res = run_case(app, work, ['-p', '0x3', '--copybreak', '010', '--stats',
                               '08', '--duration', '0.2', '--json', jpath])
    if res.rc != 0:
        return ['--copybreak 010 --stats 08: %s\n%s' % (res.describe(),
                                                        res.tail(6))]
    js = harness.load_json(jpath)
    if js.get('copybreak') != 10:
        return ['--copybreak 010: JSON copybreak %r, want 10'
                % js.get('copybreak')]
    harness.log('ok   numbers: --copybreak 010 is 10, --stats 08 is 8')
    return []


def setup_problems(app, work):
    """Set-up failures outside the app's own options: each exits 1 with a
    message naming the cause (not a wrong port number, not "Success")."""
    probs = []
    # A vdev that fails to probe: EAL goes on without it.
    res = harness.run([app] + harness.eal_args(
        work.new_prefix(), ['net_pcap0,rx_pcap=/nonexistent/npool.pcap',
                            'net_null1']) + ['--', '-p', '0x3'], TIMEOUT)
    out = res.stdout + res.stderr
    if res.rc != 1 or not re.search(r'--vdev net_pcap0: the device failed '
                                    r'to probe', out):
        probs.append('vdev that fails to probe: %s, want exit 1 naming '
                     '--vdev net_pcap0\n%s' % (res.describe(), res.tail(4)))
    if re.search(r'port 1 does not exist', out):
        probs.append('vdev that fails to probe reported as a missing port')
    # A second primary process on the same --file-prefix (a shared config
    # this time: no --no-shconf) while the first still runs.
    prefix = work.new_prefix()
    eal = [a for a in harness.eal_args(prefix, VDEVS) if a != '--no-shconf']
    first = subprocess.Popen([app] + eal + ['--', '-p', '0x3', '--duration',
                                            '6'],
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        lock = [os.path.join(d, 'config') for d in harness.runtime_dirs(prefix)]
        deadline = time.time() + 20
        while time.time() < deadline and not any(map(os.path.exists, lock)):
            time.sleep(0.1)
        time.sleep(0.5)
        res = harness.run([app] + eal + ['--', '-p', '0x3', '--duration',
                                         '0.2'], TIMEOUT)
        out = res.stdout + res.stderr
        if res.rc != 1 or not re.search(r'another DPDK process.*'
                                        r'--file-prefix', out):
            probs.append('second process on one --file-prefix: %s, want '
                         'exit 1 and the --file-prefix hint\n%s'
                         % (res.describe(), res.tail(4)))
        if re.search(r'failed.*: Success', out):
            probs.append('second process: "Success" as the reason')
    finally:
        rc = first.wait(timeout=60)
    if rc != 0:
        probs.append('the first process exited %d, want 0' % rc)
    # An app option before the "--": EAL refuses it; a command-line
    # error (2) with the hint, not a set-up failure.
    res = harness.run([app] + harness.eal_args(work.new_prefix(), VDEVS) +
                      ['-p', '0x3'], TIMEOUT)
    # DPDK 25.11's EAL parses with rte_argparse, which names the option
    # and ends the process itself (status 234): the app never sees it.
    eal_own = re.search(r'ARGPARSE: unknown argument -p', res.stderr)
    if eal_own and res.rc is not None and res.rc > 0 and not res.timed_out:
        pass
    elif res.rc != 2 or not re.search(r'EAL options come first, then "--"',
                                      res.stderr):
        probs.append('app option before "--": %s, want exit 2 and the '
                     'hint\n%s' % (res.describe(), res.tail(4)))
    if not probs:
        harness.log('ok   set-up: failed vdev probe, busy --file-prefix '
                    'and a missing "--" named')
    return probs


def run_rss(app, work, args):
    """run_case() that also gives the app's peak resident memory (KiB,
    from wait4() of the process)."""
    cmd = [app] + harness.eal_args(work.new_prefix(), VDEVS) + ['--'] + args
    paths = [work.file('rss.out'), work.file('rss.err')]
    with open(paths[0], 'w') as out, open(paths[1], 'w') as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err,
                                start_new_session=True)
    deadline = time.monotonic() + TIMEOUT * harness.TIMEOUT_MULTIPLIER
    timed_out = False
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid != 0:
            break
        if time.monotonic() > deadline:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            pid, status, ru = os.wait4(proc.pid, 0)
            break
        time.sleep(0.05)
    proc.returncode = os.waitstatus_to_exitcode(status)
    text = [open(x, errors='replace').read() for x in paths]
    res = harness.check_sanitizers(harness.Result(
        cmd, proc.returncode, text[0], text[1], timed_out))
    return res, ru.ru_maxrss


def long_line_problems(app, work):
    """A file whose first line never ends (a sparse file of 512 MiB
    of NUL bytes, no newline) is refused at line 1 after reading at most
    a line's worth (LINE_MAX bytes): the peak memory stays within 64 MiB
    of a run with good files (getline() would hold the whole file)."""
    path = work.file('endless.cfg')
    with open(path, 'wb') as f:
        f.truncate(512 << 20)
    good, base = run_rss(app, work, ['-p', '0x3', '--rule_ipv4',
                                     work.file('good4.cfg'), '--duration',
                                     '0.1'])
    if good.rc != 0:
        return ['long lines: control run %s' % good.describe()]
    probs = []
    # every file npool-fwd reads goes through one line reader
    for flag in ('--rule_ipv4', '--rule_ipv6', '--mroute', '--neigh-file',
                 '-E --rule_ipv4'):
        before = len(probs)
        res, rss = run_rss(app, work, ['-p', '0x3'] + flag.split() + [path])
        want = r'%s:1: NUL byte' % re.escape(path)
        why = harness.usage_error_problems(res, 'npool-fwd', want)
        if why:
            probs.append('%s with an endless line: %s\n%s'
                         % (flag, ', '.join(why), res.tail(4)))
        if rss > base + (64 << 10):
            probs.append('%s with an endless line: peak memory %d MiB, '
                         '%d MiB for good files' % (flag, rss >> 10,
                                                     base >> 10))
        harness.log('%s long line (512 MiB) %-23s %s, peak %d MiB (good '
                    'files: %d MiB)' % ('ok  ' if len(probs) == before
                                        else 'FAIL',
                                        flag, res.describe(), rss >> 10,
                                        base >> 10))
    return probs


def duplicates_problems(app, work):
    """A prefix given twice (the later port wins, as rte_lpm_add and l3fwd)
    loads with a warning naming both lines, per family, and the summary
    counts the repeats; a different depth or another prefix is no repeat."""
    fails = []
    for flag, text, warn in (
            ('--rule_ipv4', 'R198.18.0.0/15 1\nR198.18.0.0/16 1\n'
             'R198.19.1.2/15 0\nR0.0.0.0/0 1\nR0.0.0.0/0 0\n',
             [(3, '198.18.0.0/15', 1, 0, 1), (5, '0.0.0.0/0', 4, 0, 1)]),
            ('--rule_ipv6', 'R2001:2::/48 0\nR2001:2:0:1::/64 1\n'
             '# again\nR2001:2:0:ffff::1/48 1\n',
             [(4, '2001:2::/48', 1, 1, 0)])):
        path = work.file('dup%s.cfg' % flag[-1])
        with open(path, 'w') as f:
            f.write(text)
        res = run_case(app, work, ['-p', '0x3', flag, path, '--duration',
                                   '0.2'])
        why = []
        if res.rc != 0:
            why.append('%s, want exit status 0' % res.describe())
        got = re.findall(r'warning: .*given again.*', res.stderr)
        if len(got) != len(warn):
            why.append('%d repeat warnings, want %d: %s' % (len(got),
                                                            len(warn), got))
        for line, route, first, port, old in warn:
            want = (r'npool-fwd: warning: %s:%d: route %s given again '
                    r'\(before at line %d\): port %d replaces port %d'
                    % (re.escape(path), line, re.escape(route), first, port,
                       old))
            if not re.search(want, res.stderr):
                why.append('no warning /%s/' % want)
        if not re.search(r'\(%d repeat an earlier prefix\)' % len(warn),
                         res.stdout):
            why.append('no repeat count in the routes line')
        harness.log('%s %-45s %s' % ('ok  ' if not why else 'FAIL',
                                     'repeated prefixes ' + flag,
                                     res.describe()))
        if why:
            fails.append('repeated prefixes %s: %s\n%s' % (
                flag, ', '.join(why), res.tail(6)))
    return fails


def skipped_problems(app, work, files):
    """The SKIPPED cases: they run, warn per line, count the rest."""
    fails = []
    for name, mask, flag, fname, lines, loaded in SKIPPED:
        res = run_case(app, work, ['-p', mask, flag, files[fname],
                                   '--duration', '0.2'])
        why = []
        if res.rc != 0:
            why.append('%s, want exit status 0' % res.describe())
        for lineno, route, port in lines:
            want = (r'npool-fwd: warning: %s:%d: route %s to port %d '
                    r'skipped: port %d is not enabled in -p'
                    % (re.escape(files[fname]), lineno, re.escape(route),
                       port, port))
            if not re.search(want, res.stderr):
                why.append('no warning /%s/ on stderr' % want)
        summary = r'routes IPv%s: %d from %s \(%d skipped: ports not in -p\)' \
            % (flag[-1], loaded, re.escape(files[fname]), len(lines))
        if not re.search(summary, res.stdout):
            why.append('no line /%s/' % summary)
        harness.log('%s %-45s %s' % ('ok  ' if not why else 'FAIL', name,
                                     res.describe()))
        if why:
            fails.append('%s: %s\n%s' % (name, ', '.join(why),
                                         res.tail(6)))
    return fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--app', required=True)
    ap.add_argument('--keep', action='store_true')
    a = ap.parse_args()
    harness.require_app(a.app, 'npool-fwd')
    fails = []
    with harness.Workdir('fwd-bad-input', a.keep) as work:
        files = {}
        for name, text in ROUTE_FILES.items():
            files[name] = work.file(name + '.cfg')
            with open(files[name], 'w') as f:
                f.write(text)
        # control: the same vdevs with a good command line run and exit 0
        good = ['-p', '0x3', '--rule_ipv4', files['good4'], '--rule_ipv6',
                files['good6'], '--duration', '0.3']
        res = run_case(a.app, work, good)
        if res.rc != 0:
            harness.log('control run failed (%s), nothing below means '
                        'anything:\n%s' % (res.describe(), res.tail()))
            return 1
        files['dir'] = work.path
        probs = numbers_problems(a.app, work)
        if probs:
            fails.append('numbers: ' + '; '.join(probs))
        fails.extend('set-up: ' + p for p in setup_problems(a.app, work))
        fails += skipped_problems(a.app, work, files)
        fails += duplicates_problems(a.app, work)
        fails += long_line_problems(a.app, work)
        # The bad command lines are independent runs: PARALLEL at once
        # (each mostly waits on EAL start-up), judged in table order.
        cases = [(name, [x.format(**files) for x in args],
                  want.format(**{k: re.escape(v) for k, v in files.items()}))
                 for name, args, want in CASES]
        with concurrent.futures.ThreadPoolExecutor(PARALLEL) as pool:
            results = list(pool.map(
                lambda c: run_case(a.app, work, c[1]), cases))
        for (name, args, want), res in zip(cases, results):
            out = res.stdout + res.stderr
            why = harness.usage_error_problems(res, 'npool-fwd', want)
            if CRASH_RE.search(out):
                why.append('crash message in the output')
            status = 'ok  ' if not why else 'FAIL'
            first = next((l for l in out.splitlines()
                          if 'npool-fwd' in l or 'error' in l.lower()), '')
            harness.log('%s %-45s %s | %s' % (status, name, res.describe(),
                                              first.strip()[:110]))
            if why:
                fails.append('%s: %s (args %s)\n%s' % (
                    name, ', '.join(why), ' '.join(args), res.tail(6)))
    if fails:
        harness.log('FAIL: %d case(s)' % len(fails))
        for f in fails:
            harness.log('  - ' + f)
        return 1
    harness.log('PASS: %d bad command lines refused, %d route files with '
                'routes outside -p loaded with warnings'
                % (len(CASES), len(SKIPPED)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
