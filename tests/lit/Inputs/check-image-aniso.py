# Checks run-image-anisotropy.test's dumps: the expected sample for each max
# anisotropy, from the probe rule, against the value the shader wrote.
import math
import struct
import sys

prefix = sys.argv[1]
centre_u, centre_v = 8.25, 8.25
rho_x, rho_y = 8.0, 1.0
failed = False
for n in map(float, sys.argv[2:]):
    if n > 1:
        eta = min(rho_x / rho_y, n)
        probes = math.ceil(eta)
        us = [centre_u + rho_x * ((k + 0.5) / probes - 0.5)
              for k in range(probes)]
    else:
        us = [centre_u]
    want = sum(math.floor(u) ** 2 for u in us) / len(us)
    with open('%s.%d.bin' % (prefix, n), 'rb') as f:
        got = struct.unpack('<f', f.read(4))[0]
    if abs(got - want) > 1e-4 * max(1.0, abs(want)):
        print('anisotropy %g: got %r, want %r' % (n, got, want))
        failed = True
sys.exit(1 if failed else 0)
