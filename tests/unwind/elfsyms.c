/*
 * elfsyms.c -- read the FUNC symbols of an ELF64 executable's .symtab (see elfsyms.h).
 *
 * Fault this is designed to catch: a wrong "inside the kernel" range (see elfsyms.h); also a
 * stripped test binary or a FUNC symbol without a size, which are reported instead of being
 * guessed around.
 */
#include "elfsyms.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct elfsym *syms;
static size_t nsyms;

static int by_addr(const void *a, const void *b)
{
	const struct elfsym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int elfsyms_load(const char *path, const void *anchor, const char *anchor_name,
                 char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	unsigned char *img = NULL;
	long len;
	if (!f) {
		snprintf(err, errlen, "cannot open %s", path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    !(img = malloc((size_t)len)) || fread(img, 1, (size_t)len, f) != (size_t)len) {
		snprintf(err, errlen, "cannot read %s", path);
		fclose(f);
		free(img);
		return -1;
	}
	fclose(f);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	if ((size_t)len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > (uint64_t)len) {
		snprintf(err, errlen, "%s: not a readable ELF64 file", path);
		free(img);
		return -1;
	}
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	const Elf64_Shdr *symtab = NULL;
	for (unsigned i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB)
			symtab = &sh[i];
	if (!symtab || symtab->sh_link >= eh->e_shnum ||
	    symtab->sh_offset + symtab->sh_size > (uint64_t)len) {
		snprintf(err, errlen, "%s: no .symtab (stripped?)", path);
		free(img);
		return -1;
	}
	const Elf64_Shdr *strs = &sh[symtab->sh_link];
	const Elf64_Sym *st = (const Elf64_Sym *)(img + symtab->sh_offset);
	size_t n = symtab->sh_size / sizeof(Elf64_Sym);
	const char *names = (const char *)img + strs->sh_offset;
	syms = calloc(n ? n : 1, sizeof *syms);
	nsyms = 0;
	intptr_t bias = 0;
	int have_anchor = 0;
	for (size_t i = 0; i < n; i++) {
		if (ELF64_ST_TYPE(st[i].st_info) != STT_FUNC || st[i].st_shndx == SHN_UNDEF ||
		    st[i].st_name >= strs->sh_size)
			continue;
		syms[nsyms].addr = (uintptr_t)st[i].st_value;
		syms[nsyms].size = (size_t)st[i].st_size;
		syms[nsyms].name = names + st[i].st_name;   /* img stays allocated */
		if (strcmp(syms[nsyms].name, anchor_name) == 0) {
			bias = (intptr_t)((uintptr_t)anchor - (uintptr_t)st[i].st_value);
			have_anchor = 1;
		}
		nsyms++;
	}
	if (!have_anchor) {
		snprintf(err, errlen, "%s: no symbol %s", path, anchor_name);
		return -1;
	}
	for (size_t i = 0; i < nsyms; i++)
		syms[i].addr += (uintptr_t)bias;
	qsort(syms, nsyms, sizeof *syms, by_addr);
	return 0;
}

const struct elfsym *elfsyms_starting(uintptr_t addr)
{
	for (size_t i = 0; i < nsyms; i++)
		if (syms[i].addr == addr && syms[i].size)
			return &syms[i];
	return NULL;
}

const struct elfsym *elfsyms_containing(uintptr_t addr)
{
	for (size_t i = 0; i < nsyms; i++)
		if (addr >= syms[i].addr && addr - syms[i].addr < syms[i].size)
			return &syms[i];
	return NULL;
}

const struct elfsym *elfsyms_named(const char *name)
{
	for (size_t i = 0; i < nsyms; i++)
		if (strcmp(syms[i].name, name) == 0)
			return &syms[i];
	return NULL;
}
