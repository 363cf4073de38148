/*
 * elfsyms.h -- function symbols (address, size, name) of the running executable, read from
 * the ELF .symtab of /proc/self/exe.
 *
 * Fault this is designed to catch: a test that judges "inside the kernel" by a guessed
 * range.  dladdr() sees only dynamic symbols and the kernels are hidden (and the AArch64
 * test is static), so the exact [start, start + st_size) of every FUNC symbol is taken from
 * the symbol table, relocated by the load bias measured on a known function.
 */
#ifndef LF_ELFSYMS_H
#define LF_ELFSYMS_H

#include <stddef.h>
#include <stdint.h>

struct elfsym {
	uintptr_t addr;    /* run-time address */
	size_t size;
	const char *name;
};

/* Load the FUNC symbols of `path`; `anchor` is the run-time address of the function named
 * `anchor_name` (gives the load bias).  0 on success, -1 with a message in err. */
int elfsyms_load(const char *path, const void *anchor, const char *anchor_name,
                 char *err, size_t errlen);
/* The FUNC symbol starting exactly at addr, or containing addr, or named name (NULL if
 * none). */
const struct elfsym *elfsyms_starting(uintptr_t addr);
const struct elfsym *elfsyms_containing(uintptr_t addr);
const struct elfsym *elfsyms_named(const char *name);

#endif /* LF_ELFSYMS_H */
