#!/bin/sh
# A label program in the exec: convention, for tests/label_planted.rs:
# label_exec.sh PUNYCHECK -e reads u+XXXX tokens (a U-label) and prints its
# A-label; label_exec.sh PUNYCHECK -d reads a label and prints one u+XXXX
# line per code point of its U-label; a refusal is a message on standard
# error and exit status 1. The answers are punycheck's reference's, asked
# through `punycheck serve`.
punycheck=$1
case "$2" in
  -e) question="encode $(tr '\n' ' ' | sed 's/ *$//')" ;;
  -d) question="decode $(head -n 1)" ;;
  *) echo "usage: label_exec.sh PUNYCHECK -e|-d" >&2; exit 2 ;;
esac
answer=$(printf '%s\n' "$question" | "$punycheck" serve --codec label --impl label-ref)
case "$answer" in
  "ok "*)
    result=${answer#ok }
    if [ "$2" = -e ]; then echo "$result"; else for token in $result; do echo "$token"; done; fi ;;
  ok) [ "$2" = -e ] && echo ;;
  *) echo "failed: ${answer#error }" >&2; exit 1 ;;
esac
