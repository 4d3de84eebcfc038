#!/usr/bin/env bash
# Compares what two spirv2llvm binaries emit, shader by shader: the check
# that a restructuring changed no output (issue 15, "behaviour unchanged").
#
#   bash scripts/compare-ir.sh OLD_BIN NEW_BIN [SHADER...]
#
# Without shaders: bench/shaders, every GLSL/SPIR-V assembly file under
# tests/, and ../shared/corpus/glslang when it exists. Each shader is
# translated with the default options (W = 4), --width=16, --backend=
# invocation and --width=8 --no-inline (the last two for compute and
# fragment shaders only); the IR, the messages and the exit status must
# be the same. Prints each difference and exits non-zero if there is one.
# JOBS (default 2) sets the parallelism.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 OLD_BIN NEW_BIN [SHADER...]" >&2; exit 2; }
OLD=$1 NEW=$2; shift 2
for b in "$OLD" "$NEW"; do
  [ -x "$b" ] || { echo "$0: $b is not an executable" >&2; exit 2; }
done
LIST=$(mktemp); OUT=$(mktemp -d); trap 'rm -rf "$LIST" "$OUT"' EXIT
if [ $# -gt 0 ]; then
  printf '%s\n' "$@" > "$LIST"
else
  { ls "$ROOT"/bench/shaders/*.comp
    find "$ROOT/tests" \( -name '*.comp' -o -name '*.frag' -o -name '*.vert' \
      -o -name '*.spvasm' \) | sort
    [ -d "$ROOT/../shared/corpus/glslang" ] &&
      ls "$ROOT"/../shared/corpus/glslang/*.{comp,frag,vert} 2>/dev/null
  } > "$LIST"
fi
one() {
  f=$1 OLD=$2 NEW=$3 OUT=$4
  for cfg in "w4:" "w16:--width=16" "inv:--backend=invocation" \
             "noinline:--width=8 --no-inline"; do
    name=${cfg%%:*} opts=${cfg#*:}
    case "$name:$f" in inv:*.vert|noinline:*.vert) continue ;; esac
    for side in old new; do
      bin=$OLD; [ $side = new ] && bin=$NEW
      timeout 120 "$bin" $opts "$f" > "$OUT/$$.$side" 2>&1
      echo "exit $?" >> "$OUT/$$.$side"
    done
    if ! cmp -s "$OUT/$$.old" "$OUT/$$.new"; then
      echo "DIFFERS: $f ($name)"
      diff "$OUT/$$.old" "$OUT/$$.new" | head -8
    fi
  done
}
export -f one
xargs -P "${JOBS:-2}" -I{} bash -c 'one "$@"' _ {} "$OLD" "$NEW" "$OUT" \
  < "$LIST" > "$OUT/report"
cat "$OUT/report"
echo "$(wc -l < "$LIST") shaders compared"
! grep -q '^DIFFERS' "$OUT/report"
