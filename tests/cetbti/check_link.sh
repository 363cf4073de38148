#!/bin/sh
# check_link.sh ARCH OUT CC READELF RUN CFLAGS LIB.a LIB.so OBJS... -- CET (x86-64) /
# BTI+PAC (AArch64) of limbforge as consumers link it.
#
# Fault this is designed to catch: a library whose objects are each marked (check_objects.sh,
# objcheck.py check that) but which still cannot be linked into a CET/BTI program without
# warnings, or whose linked outputs silently lose the property -- an unmarked member pulled
# from the archive (a runtime object built without -fcf-protection / -mbranch-protection, a
# libgcc helper such as the outline atomics), a shared-library recipe that drags in unmarked
# start files, or a build that links but does not run.
#
# Links, each with -z cet-report=error (x86-64) or -z force-bti [-z bti-report=error when the
# linker has it] (AArch64), each required to succeed with empty linker output (force-bti
# warns about every unmarked input) and to carry "IBT, SHSTK" / "BTI, PAC" in readelf -n and a
# non-executable GNU_STACK:
#   so-objects    the library's objects with the top Makefile's liblimbforge.so recipe
#   so-archive    a consumer's shared object: prog.c + the whole archive (every member)
#   prog-archive  a program: start_<arch>.S + prog.c + the archive, run (known answers)
#   prog-shared   a program against LIB.so (-L/-l, rpath), run
# and LIB.so as the Makefile built it must carry the property too.
# Programs use -nostartfiles with the marked start_<arch>.S, because Debian 12's own crt
# files are unmarked (that is the toolchain's property, not limbforge's).
set -u
arch=$1 out=$2 cc=$3 readelf=$4 run=$5 cflags=$6 lib=$7 so=$8
shift 8
objs="$*"
here=$(dirname "$0")
fail=0
bad() { echo "cetbti: FAIL: $*"; fail=1; }

case $arch in
x86_64)
	strict="-Wl,-z,cet-report=error"; prop='x86 feature: IBT, SHSTK' ;;
aarch64)
	strict="-Wl,-z,force-bti"; prop='AArch64 feature: BTI, PAC'
	ld=$($cc -print-prog-name=ld)
	if $ld --help 2>/dev/null | grep -q 'bti-report'; then
		strict="$strict -Wl,-z,bti-report=error"
	fi ;;
*) echo "cetbti: unknown arch $arch"; exit 1 ;;
esac
sodir=$(cd "$(dirname "$so")" && pwd)
soname=$(basename "$so" .so)
soname=${soname#lib}
mkdir -p "$out"

# link NAME OUTPUT ARGS...: must succeed with no output at all, result marked
link() {
	name=$1 output=$2 before=$fail
	fail=0
	shift 2
	if ! "$@" -o "$output" > "$out/$name.log" 2>&1; then
		bad "$name: link failed: $*"
		sed 's/^/    /' "$out/$name.log"
		return 1
	fi
	if [ -s "$out/$name.log" ]; then
		bad "$name: the linker printed something (with $strict):"
		sed 's/^/    /' "$out/$name.log"
	fi
	props=$($readelf -nW "$output" | sed -n 's/.*Properties:[[:space:]]*//p')
	case $props in
	*"$prop"*) ;;
	*) bad "$name: $output has property '$props', not '$prop'" ;;
	esac
	if $readelf -lW "$output" | grep -E 'GNU_STACK' | grep -qE 'RWE'; then
		bad "$name: $output has an executable stack"
	fi
	if [ $fail = 0 ]; then
		echo "  $name: linked with $strict, no linker output, '$props'"
		fail=$before
		return 0
	fi
	return 1
}

for f in "$lib" "$so"; do
	[ -e "$f" ] || { echo "cetbti: $f missing (run make ARCH=$arch lib)"; exit 1; }
done

link so-objects "$out/libobjs.so" \
	$cc -shared -nostartfiles -Wl,-z,noexecstack -Wl,-z,now $strict $objs
link so-archive "$out/libconsumer.so" \
	$cc $cflags -fPIC -shared -nostartfiles -Wl,-z,noexecstack $strict "$here/prog.c" \
	-Wl,--whole-archive "$lib" -Wl,--no-whole-archive
if link prog-archive "$out/prog-archive" \
	$cc $cflags -nostartfiles $strict "$here/start_$arch.S" "$here/prog.c" "$lib"; then
	$run "$out/prog-archive" | sed 's/^/    /' || bad "prog-archive: the program failed"
fi
if link prog-shared "$out/prog-shared" \
	$cc $cflags -nostartfiles $strict "$here/start_$arch.S" "$here/prog.c" \
	-L"$sodir" -l"$soname" -Wl,-rpath,"$sodir"; then
	$readelf -dW "$out/prog-shared" | grep -q "NEEDED.*lib$soname" ||
		bad "prog-shared: not linked against the shared library"
	$run "$out/prog-shared" | sed 's/^/    /' || bad "prog-shared: the program failed"
fi
props=$($readelf -nW "$so" | sed -n 's/.*Properties:[[:space:]]*//p')
case $props in
*"$prop"*) echo "  $so (the Makefile's): '$props'" ;;
*) bad "$so (as the Makefile built it) has property '$props', not '$prop'" ;;
esac

[ $fail = 0 ] && echo "cetbti ($arch): library, consumer shared object and two programs link" \
	"under $strict without a warning and keep '$prop'"
exit $fail
