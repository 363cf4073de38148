#!/bin/sh
# check_objects.sh ARCH BUILD READELF OBJDUMP -- object hygiene of the built library.
#
# Faults this is designed to catch: an object that makes the whole program's stack
# executable (missing or executable .note.GNU-stack), an object that silently drops CET
# (x86-64: IBT+SHSTK) or BTI/PAC (AArch64) for every program it is linked into (missing
# .note.gnu.property), and an exported kernel entry without its landing pad (endbr64 /
# bti c), which faults under IBT/BTI enforcement when called through a pointer -- exactly
# how the dispatcher calls it.
set -eu
arch=$1 build=$2 readelf=$3 objdump=$4
fail=0
bad() { echo "check_objects: FAIL: $*"; fail=1; }

case $arch in
x86_64)  prop='x86 feature: IBT, SHSTK'; pad='endbr64' ;;
aarch64) prop='AArch64 feature: BTI, PAC'; pad='bti[[:space:]]+c|hint[[:space:]]+#0x22' ;;
*) echo "check_objects: unknown arch $arch"; exit 1 ;;
esac

objs=$(find "$build/obj" -name '*.o' | sort)
[ -n "$objs" ] || { echo "check_objects: no objects under $build/obj"; exit 1; }
nobj=0 nfun=0
for o in $objs; do
	nobj=$((nobj + 1))
	# .note.GNU-stack present, without the X flag
	line=$($readelf -SW "$o" | grep -F '.note.GNU-stack' || true)
	[ -n "$line" ] || bad "$o: no .note.GNU-stack section"
	case $line in *' AX '*|*' WAX '*|*' X '*) bad "$o: executable .note.GNU-stack" ;; esac
	$readelf -nW "$o" | grep -qF "$prop" || bad "$o: no .note.gnu.property '$prop'"
done

# every kernel entry point in the generated objects begins with the landing pad
for o in $(find "$build/obj/generated" -name '*.S.o' | sort); do
	syms=$($readelf -sW "$o" | awk '$4 == "FUNC" && $5 == "GLOBAL" { print $8 }')
	[ -n "$syms" ] || bad "$o: no global function"
	for s in $syms; do
		nfun=$((nfun + 1))
		first=$($objdump -d --no-show-raw-insn "$o" |
			awk -v s="<$s>:" '$2 == s { getline; sub(/^[[:space:]]*[0-9a-f]+:[[:space:]]*/, ""); print; exit }')
		echo "$first" | grep -Eq "^($pad)" || bad "$o: $s starts with '$first', not $pad"
	done
done

# the linked shared library keeps the property and a non-executable stack
so="$build/liblimbforge.so"
so_note=""
if [ -f "$so" ]; then
	# informational: the toolchain's own start files can drop the property (Debian 12's
	# x86-64 crti.o/crtn.o have none); the objects above are what limbforge controls
	if ! $readelf -nW "$so" | grep -qF "$prop"; then
		echo "check_objects: NOTE: $so has no '$prop' note (an input of the link lacks it;" \
		     "try -Wl,-z,cet-report=warning / -z force-bti to see which)"
		so_note=" (the .so itself lacks the property: see NOTE)"
	fi
	$readelf -lW "$so" | grep -E 'GNU_STACK' | grep -qE 'RWE' && bad "$so: executable stack"
fi

if [ $fail = 0 ]; then
	echo "check_objects ($arch): $nobj objects with non-executable .note.GNU-stack and" \
	     "'$prop'; $nfun kernel entries start with a landing pad; liblimbforge.so has a" \
	     "non-executable stack$so_note"
fi
exit $fail
