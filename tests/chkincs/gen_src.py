#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write a source file that includes one header and nothing else
(tests/chkincs: each installed header compiles alone).

  gen_src.py HEADER OUTPUT
"""
import os
import sys

header, output = sys.argv[1], sys.argv[2]
with open(output, 'w') as f:
    f.write('#include "%s"\n' % os.path.basename(header))
