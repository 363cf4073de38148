/*
 * ct_cpu.h -- for the valgrind constant-time programs: the x86-64 features the CPU really has,
 * read from the kernel's /proc/cpuinfo.  Valgrind's CPUID hides ADX (and AVX-512) from the
 * library's detection but executes ADCX/ADOX, so the programs call the adx (and bmi2)
 * variants straight from the dispatch table when this says the CPU has them.
 */
#ifndef LF_CT_CPU_H
#define LF_CT_CPU_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "limbforge.h"

static inline uint64_t cpuinfo_extra(void)
{
	uint64_t f = 0;
#if defined(__x86_64__)
	char line[8192];
	FILE *fp = fopen("/proc/cpuinfo", "r");
	if (!fp)
		return 0;
	while (fgets(line, sizeof line, fp)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		if (strstr(line, " adx"))
			f |= LF_CPU_ADX;
		if (strstr(line, " bmi2"))
			f |= LF_CPU_BMI2;
		break;
	}
	fclose(fp);
#endif
	return f;
}

#endif /* LF_CT_CPU_H */
