#!/usr/bin/env bash
# Run spirv2llvm over a directory of SPIR-V modules and classify every run.
#
# Usage: run-corpus.sh CORPUS_DIR [extra spirv2llvm args...]
#
# Every *.spv in CORPUS_DIR is translated in each mode:
#   default          (no extra options)
#   no-validate      --no-validate
#   no-canonicalize  --no-canonicalize
#   O2-w8            -O2 --width=8
# A module with several OpEntryPoints is run once per entry point with
# --entry NAME (names from spirv-dis); a module with one is run without it.
# The extra arguments are appended to every run (dumps such as
# --print-uniformity go to stdout, which is discarded; the IR still goes to
# the -o file that is verified).
#
# Classes:
#   ok           exit 0 and `opt -passes=verify` accepts the IR
#   verify-fail  exit 0 but opt rejects the IR (or the output is empty)
#   diagnostic   exit 1 with a "spirv2llvm: error:" message
#   usage        exit 2
#   hang         killed by the timeout
#   crash        signal / exit >= 128, "LLVM ERROR", an ASan/UBSan/LSan
#                report, or exit 1 without a spirv2llvm error message
#   other        any other exit status
#
# Environment (all optional):
#   S2L       spirv2llvm binary   (default: <repo>/build/bin/spirv2llvm)
#   OPT       opt binary          (default: /usr/lib/llvm-19/bin/opt)
#   RESULTS   TSV written here    (default: /tmp/run-corpus-results.tsv)
#   LOGDIR    stderr of every crash/hang/verify-fail/other run is kept here
#             (default: RESULTS without .tsv, plus .logs)
#   TIMEOUT   seconds per run     (default: 20)
#   JOBS      parallel runs       (default: 1)
#   MODES     space-separated subset of the mode names above
#   MANIFEST  glslang corpus manifest; a module listed there (FILE column =
#             the .spv name without .spv) gets --target-env VAL_ENV
#             (default: /work/shared/corpus/glslang/MANIFEST.txt if present)
#
# TSV columns: file, entry ("-" if none given), mode, class, exit status,
# first line of the message (the spirv2llvm error, the sanitizer report, the
# opt error, ...). Prints one summary line per class and one per mode/class.
# Sanitizer builds: ASAN_OPTIONS/UBSAN_OPTIONS from the environment are kept;
# set ASAN_OPTIONS=detect_leaks=0 to ignore leaks.
set -u

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,41p' "$0"; exit 2
fi
CORPUS_DIR=$1; shift
EXTRA_ARGS=("$@")
[ -d "$CORPUS_DIR" ] || { echo "not a directory: $CORPUS_DIR" >&2; exit 2; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
S2L=${S2L:-$HERE/../../build/bin/spirv2llvm}
OPT=${OPT:-/usr/lib/llvm-19/bin/opt}
RESULTS=${RESULTS:-/tmp/run-corpus-results.tsv}
LOGDIR=${LOGDIR:-${RESULTS%.tsv}.logs}
TIMEOUT=${TIMEOUT:-20}
JOBS=${JOBS:-1}
MODES=${MODES:-default no-validate no-canonicalize O2-w8}
MANIFEST=${MANIFEST:-/work/shared/corpus/glslang/MANIFEST.txt}

for tool in "$S2L" "$OPT" spirv-dis timeout; do
  command -v "$tool" >/dev/null || { echo "missing tool: $tool" >&2; exit 2; }
done

mode_args() {
  case "$1" in
    default)         ;;
    no-validate)     echo --no-validate ;;
    no-canonicalize) echo --no-canonicalize ;;
    O2-w8)           echo -O2 --width=8 ;;
    *) echo "unknown mode: $1" >&2; exit 2 ;;
  esac
}
for m in $MODES; do mode_args "$m" >/dev/null || exit 2; done

# Target environment of each module, from the manifest.
declare -A TARGET_ENV=()
if [ -f "$MANIFEST" ]; then
  while IFS=$'\t' read -r file _stage _lang _status venv _cmd; do
    case "$file" in ''|'#'*) continue;; esac
    TARGET_ENV[$file]=$venv
  done < "$MANIFEST"
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$LOGDIR"

# first_line FILE REGEX...: first line matching the first REGEX that matches
# anything, tabs flattened.
first_line() {
  local file=$1 re line; shift
  for re in "$@"; do
    line=$(grep -m1 -E "$re" "$file" 2>/dev/null) && break
  done
  printf '%s' "${line:-}" | sed -E 's/^ *#[0-9]+ 0x[0-9a-f]+ //' | tr '\t' ' ' | cut -c1-300
}

# run_one SPV ENTRY MODE ROWFILE: translate once, append one TSV row.
run_one() {
  local spv=$1 entry=$2 mode=$3 row=$4
  local base; base=$(basename "$spv")
  local tag="${base}${entry:+.$entry}.$mode"
  local out="$WORK/$tag.ll" err="$WORK/$tag.err"
  local args; read -ra args <<< "$(mode_args "$mode")"
  local env=${TARGET_ENV[${base%.spv}]:-}
  [ -n "$env" ] && args+=(--target-env "$env")
  [ -n "$entry" ] && args+=(--entry "$entry")

  timeout -k 5 "$TIMEOUT" "$S2L" "${args[@]}" "${EXTRA_ARGS[@]}" \
    -o "$out" "$spv" >/dev/null 2>"$err" </dev/null
  local rc=$? class msg=""
  if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$err"; then
    class=crash
    msg=$(first_line "$err" 'ERROR: (Address|Leak)Sanitizer|runtime error:')
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    class=hang; msg="timeout after ${TIMEOUT}s"
  elif [ $rc -ge 128 ] || grep -q 'LLVM ERROR' "$err"; then
    class=crash
    # LLVM's crash handler prints a stack dump: name the first frame of ours.
    msg=$(first_line "$err" 'LLVM ERROR|Assertion|terminate called' \
                            '^ *#[0-9]+ .*spirv2llvm::' '[Ee]rror' '.')
    [ $rc -ge 128 ] && msg="signal $((rc - 128)): $msg"
  elif [ $rc -eq 0 ]; then
    if [ ! -s "$out" ]; then
      class=verify-fail; msg="empty output"
    elif "$OPT" -passes=verify -disable-output "$out" 2>"$err.opt"; then
      class=ok
    else
      class=verify-fail; msg=$(first_line "$err.opt" '.')
      cat "$err.opt" >> "$err"
    fi
  elif [ $rc -eq 1 ]; then
    msg=$(first_line "$err" '^spirv2llvm: error:')
    if [ -n "$msg" ]; then class=diagnostic
    else class=crash; msg="exit 1 without error message: $(first_line "$err" '.')"
    fi
  elif [ $rc -eq 2 ]; then
    class=usage; msg=$(first_line "$err" '.')
  else
    class=other; msg="exit $rc: $(first_line "$err" '.')"
  fi
  # Drop the file name from spirv2llvm messages so they group well.
  msg=${msg//"$spv: "/}
  case $class in ok|diagnostic|usage) ;; *) cp "$err" "$LOGDIR/$tag.stderr" ;; esac
  rm -f "$out" "$err" "$err.opt"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$base" "${entry:--}" "$mode" "$class" "$rc" "$msg" >> "$row"
}

# Entry point names of a module; printed only if there are several.
entry_points() {
  local names
  names=$(spirv-dis --raw-id "$1" 2>/dev/null |
          sed -n 's/^ *OpEntryPoint [A-Za-z]* %[0-9A-Za-z_]* "\([^"]*\)".*/\1/p')
  [ "$(printf '%s\n' "$names" | grep -c .)" -gt 1 ] && printf '%s\n' "$names"
}

n=0
shopt -s nullglob
for spv in "$CORPUS_DIR"/*.spv; do
  entries=$(entry_points "$spv")
  [ -n "$entries" ] || entries="-"
  while IFS= read -r entry; do
    [ "$entry" = "-" ] && entry=""
    for mode in $MODES; do
      n=$((n + 1))
      run_one "$spv" "$entry" "$mode" "$WORK/rows" &
      # Keep at most JOBS runs going.
      while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    done
  done <<< "$entries"
done
wait

{ printf 'file\tentry\tmode\tclass\texit\tmessage\n'
  cat "$WORK/rows" 2>/dev/null | sort -t$'\t' -k1,1 -k2,2 -k3,3; } > "$RESULTS"

echo "runs: $n  binary: $S2L  results: $RESULTS  logs: $LOGDIR"
for class in ok diagnostic verify-fail crash hang usage other; do
  printf '%-12s %d\n' "$class" "$(awk -F'\t' -v c="$class" 'NR > 1 && $4 == c' "$RESULTS" | wc -l)"
done
echo "per mode:"
awk -F'\t' 'NR > 1 { k[$3 "\t" $4]++ } END { for (x in k) print x "\t" k[x] }' "$RESULTS" |
  sort | awk -F'\t' '{ printf "  %-16s %-12s %d\n", $1, $2, $3 }'
# Exit status 1 if anything crashed, hung or produced invalid IR.
awk -F'\t' 'NR > 1 && ($4 == "crash" || $4 == "hang" || $4 == "verify-fail" || $4 == "other") { bad = 1 }
            END { exit bad }' "$RESULTS"
