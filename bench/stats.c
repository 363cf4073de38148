/*
 * stats.c -- robust summary of a benchmark sample: median, median absolute deviation (MAD),
 * 10th/25th/75th/90th percentiles (linear interpolation), minimum and mean.  Used by main.c and
 * timer.c; nothing to run on its own.
 */
#include <stdlib.h>

#include "bench.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* q-quantile of a sorted array, 0 <= q <= 1 */
static double quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i + 1 >= n)
		return v[n - 1];
	double f = pos - (double)i;
	return v[i] + f * (v[i + 1] - v[i]);
}

void bench_stats(double *v, size_t n, struct bench_stats *out)
{
	*out = (struct bench_stats){ 0 };
	if (n == 0)
		return;
	qsort(v, n, sizeof *v, cmp_double);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / (double)n;
	out->min = v[0];
	out->median = quantile(v, n, 0.5);
	out->p10 = quantile(v, n, 0.1);
	out->p25 = quantile(v, n, 0.25);
	out->p75 = quantile(v, n, 0.75);
	out->p90 = quantile(v, n, 0.9);

	double *dev = malloc(n * sizeof *dev);
	if (!dev)
		return;
	for (size_t i = 0; i < n; i++)
		dev[i] = v[i] > out->median ? v[i] - out->median : out->median - v[i];
	qsort(dev, n, sizeof *dev, cmp_double);
	out->mad = quantile(dev, n, 0.5);
	free(dev);
}
