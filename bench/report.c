/*
 * report.c -- output of the benchmark harness: the run header, the JMH-like table on stdout
 * and the JSON results file (bench/results/<cpu>.json, read by bench/plot.py).
 *
 * Table columns: Benchmark = <kernel>.<variant> ('*' = the dispatcher's choice here), (size)
 * in limbs (mpn_*) or BE words (bi_*), Mode "med" (median over Cnt timed batches of the mean
 * cost per call in a batch), Score in core cycles per call, Error = median absolute deviation
 * of the same, then cycles per limb/word, ns per call, the p10..p90 range, and the ratios
 * xGMP = GMP median / this median and xref = ref median / this median (> 1: faster), and with
 * --baseline V a column xbase = V / this.  The ratios shown are the medians over the rounds
 * of the per-round (paired) ratios; the JSON gives their p10/p25/p75/p90 too (ratio_vs_gmp,
 * ratio_vs_ref, with --baseline ratio_vs_base and the top-level "baseline").
 * Drivers whose unit has a byte size (Poly1305: 16-byte blocks) show (bytes), cyc/byte,
 * ns/op, ops/s (JMH's throughput mode) and the p10..p90 range in cycles per byte, and one
 * ratio column per peer: xOpenSSL, xsodium (JSON ratio_vs_openssl, ratio_vs_sodium; "size"
 * stays in blocks, "bytes", "cycles_per_byte" and "ops_per_s" are added).
 * Used by main.c (`make bench`).
 */
#include <string.h>

#include "bench.h"

void bench_print_header(const struct bench_run *r, FILE *f)
{
	fprintf(f, "# limbforge bench  %s  cpu: %s [%s]  %s\n", r->date, r->cpu.model, r->cpu.name,
	        r->quick ? "(quick)" : "");
	fprintf(f, "# compiler: %s  GMP %s  timer: %s (overhead %.0f ticks, subtracted)\n",
	        BENCH_COMPILER, gmp_version_string(), bench_timer_name(), r->timer_overhead);
	fprintf(f, "# Poly1305 peers: %s; libsodium %s\n",
	        bench_openssl_version() ? bench_openssl_version() : "OpenSSL not built in",
	        bench_sodium_version() ? bench_sodium_version() : "not built in");
#if defined(__x86_64__)
	fprintf(f, "# TSC %.4f GHz (measured vs CLOCK_MONOTONIC_RAW); core cycles per TSC tick "
	        "%.4f (median of %zu interleaved samples, p10..p90 %.4f..%.4f, first %.4f, last "
	        "%.4f) => core ~%.3f GHz\n",
	        r->ticks_per_ns, r->calib.median, r->calib_n, r->calib.p10, r->calib.p90,
	        r->calib_first, r->calib_last, r->calib.median * r->ticks_per_ns);
	fprintf(f, "#   calibration: chains of 1000 dependent register-register adds "
	        "(add %%reg,%%acc), one core cycle each\n");
#else
	fprintf(f, "# core cycles per ns %.4f (median of %zu samples; dependent register adds)\n",
	        r->calib.median, r->calib_n);
#endif
	if (r->emulated || !r->calib.median)
		fprintf(f, "# WARNING: running under emulation (qemu): every timing below is "
		        "MEANINGLESS; this run only proves that the harness builds and runs.\n");
	fprintf(f, "# Score/Error: median / median-absolute-deviation of core cycles per call over "
	        "Cnt batches, contenders interleaved round-robin.\n# xGMP, xOpenSSL, xsodium, xref: "
	        "median over the rounds of the peer's (or ref's) batch time / this row's batch time "
	        "in the same round (> 1 = faster; paired, so robust to changing load).\n# Shared, "
	        "noisy machine: quote ratios, not absolute figures.\n");
	if (r->baseline)
		fprintf(f, "# xbase: the same paired ratio with baseline %s's batch time (> 1 = faster "
		        "than %s).\n", r->baseline, r->baseline);
}

/* the driver's peers that are built in (their ratio columns) */
static size_t peer_columns(const struct bench_driver *d, size_t idx[BENCH_MAX_PEERS])
{
	size_t n = 0;
	for (size_t i = 0; i < BENCH_MAX_PEERS && d->peers[i].name; i++)
		if (d->peers[i].batch)
			idx[n++] = i;
	return n;
}

static void ratio_text(char *buf, size_t cap, double of_medians, const struct bench_stats *p)
{
	if (of_medians > 0)
		snprintf(buf, cap, "%.2f", p->median);
	else
		snprintf(buf, cap, "-");
}

static void print_row(FILE *f, const struct bench_row *w, int with_base)
{
	const struct bench_driver *d = w->drv;
	char name[80], ratios[96] = "", r[16], ratio_b[24] = "", range[40];
	size_t idx[BENCH_MAX_PEERS], np = peer_columns(d, idx);
	snprintf(name, sizeof name, "%s%s", w->c->label, w->c->chosen ? "*" : "");
	for (size_t i = 0; i < np; i++) {
		size_t at = strlen(ratios);
		int width = d->unit_bytes ? (int)strlen(d->peers[idx[i]].column) + 1 : 6;
		ratio_text(r, sizeof r, w->ratio_peer[idx[i]], &w->paired_peer[idx[i]]);
		snprintf(ratios + at, sizeof ratios - at, " %*s", width, r);
	}
	ratio_text(r, sizeof r, w->ratio_ref, &w->paired_ref);
	if (with_base)
		snprintf(ratio_b, sizeof ratio_b, " %6.2f", w->paired_base.median);
	const char *bad = strcmp(w->check, "MISMATCH") == 0 ? "  OUTPUT MISMATCH vs ref" : "";
	if (d->unit_bytes) {
		double bytes = (double)(w->size * d->unit_bytes);
		snprintf(range, sizeof range, "%.3f..%.3f", w->cyc.p10 / bytes, w->cyc.p90 / bytes);
		fprintf(f, "%-40s %8zu  med %5zu %10.1f ± %7.1f  cyc/op %8.3f %10.1f %11.0f  %-14s%s "
		        "%6s%s%s\n", name, w->size * d->unit_bytes, w->cnt, w->cyc.median, w->cyc.mad,
		        w->cyc.median / bytes, w->ns_per_call,
		        w->ns_per_call > 0 ? 1e9 / w->ns_per_call : 0.0, range, ratios, r, ratio_b, bad);
		return;
	}
	snprintf(range, sizeof range, "%.1f..%.1f", w->cyc.p10, w->cyc.p90);
	fprintf(f, "%-40s %6zu  med %5zu %10.1f ± %7.1f  cyc/op %9.3f %10.1f  %-20s%s %6s%s%s\n",
	        name, w->size, w->cnt, w->cyc.median, w->cyc.mad, w->cyc.median / (double)w->size,
	        w->ns_per_call, range, ratios, r, ratio_b, bad);
}

void bench_print_table(const struct bench_run *r, FILE *f)
{
	const struct bench_driver *cur = NULL;
	for (size_t i = 0; i < r->nrows; i++) {
		const struct bench_row *w = &r->rows[i];
		if (w->drv != cur) {
			char cols[96] = "", unit[24];
			size_t idx[BENCH_MAX_PEERS], np;
			cur = w->drv;
			np = peer_columns(cur, idx);
			for (size_t k = 0; k < np; k++) {
				size_t at = strlen(cols);
				char h[24];
				snprintf(h, sizeof h, "x%s", cur->peers[idx[k]].column);
				snprintf(cols + at, sizeof cols - at, " %*s",
				         cur->unit_bytes ? (int)strlen(h) : 6, h);
			}
			if (cur->unit_bytes) {
				fprintf(f, "\n## %s  (size in bytes; --sizes in %zu-byte %ss)\n", cur->name,
				        cur->unit_bytes, cur->unit);
				if (cur->title)
					fprintf(f, "#  %s\n", cur->title);
				fprintf(f, "%-40s %8s  %-4s%5s %10s   %7s  %-6s %8s %10s %11s  %-14s%s %6s%s\n",
				        "Benchmark", "(bytes)", "Mode", "Cnt", "Score", "Error", "Units",
				        "cyc/byte", "ns/op", "ops/s", "p10..p90 c/B", cols, "xref",
				        r->baseline ? "  xbase" : "");
			} else {
				snprintf(unit, sizeof unit, "cyc/%s", cur->unit);
				fprintf(f, "\n## %s  (size in %ss)%s%s\n", cur->name, cur->unit,
				        cur->peer_note ? "  " : "", cur->peer_note ? cur->peer_note : "");
				fprintf(f, "%-40s %6s  %-4s%5s %10s   %7s  %-6s %9s %10s  %-20s%s %6s%s\n",
				        "Benchmark", "(size)", "Mode", "Cnt", "Score", "Error", "Units", unit,
				        "ns/op", "p10..p90 cyc/op", cols, "xref", r->baseline ? "  xbase" : "");
			}
		}
		print_row(f, w, r->baseline != NULL);
	}
	fprintf(f, "\n");
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static const char *kind_name(enum bench_kind k)
{
	switch (k) {
	case BK_VARIANT: return "variant";
	case BK_REF: return "ref";
	case BK_GMP: return "gmp";
	case BK_GMP_PEER: return "gmp-peer";
	case BK_PEER: return "peer";
	}
	return "?";
}

static void jstats(FILE *f, const struct bench_stats *s)
{
	fprintf(f, "{\"median\": %.4f, \"mad\": %.4f, \"p10\": %.4f, \"p90\": %.4f, \"min\": %.4f, "
	        "\"mean\": %.4f}", s->median, s->mad, s->p10, s->p90, s->min, s->mean);
}

/* "name": {"paired_median", "paired_p10", "paired_p25", "paired_p75", "paired_p90",
 * "of_medians"} or null */
static void jratio(FILE *f, const char *name, double of_medians, const struct bench_stats *p)
{
	if (of_medians <= 0) {
		fprintf(f, "\"%s\": null, ", name);
		return;
	}
	fprintf(f, "\"%s\": {\"paired_median\": %.4f, \"paired_p10\": %.4f, "
	        "\"paired_p25\": %.4f, \"paired_p75\": %.4f, \"paired_p90\": %.4f, "
	        "\"of_medians\": %.4f}, ", name, p->median, p->p10, p->p25, p->p75, p->p90,
	        of_medians);
}

int bench_write_json(const struct bench_run *r, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "{\n  \"schema\": \"limbforge-bench/1\",\n  \"date\": ");
	jstr(f, r->date);
	fprintf(f, ",\n  \"cpu\": {\"model\": ");
	jstr(f, r->cpu.model);
	fprintf(f, ", \"name\": ");
	jstr(f, r->cpu.name);
	fprintf(f, ", \"arch\": ");
	jstr(f, r->cpu.arch);
	fprintf(f, ", \"family\": %u, \"model_id\": %u, \"stepping\": %u},\n", r->cpu.family,
	        r->cpu.model_id, r->cpu.stepping);
	fprintf(f, "  \"features\": \"0x%016llx\",\n", (unsigned long long)lf_cpu_features());
	fprintf(f, "  \"emulated\": %s,\n  \"quick\": %s,\n  \"partial\": %s,\n  \"args\": ",
	        r->emulated ? "true" : "false", r->quick ? "true" : "false",
	        r->partial ? "true" : "false");
	jstr(f, r->args);
	if (r->baseline) {
		fprintf(f, ",\n  \"baseline\": ");
		jstr(f, r->baseline);
	}
	fprintf(f, ",\n  \"compiler\": ");
	jstr(f, BENCH_COMPILER);
#ifdef BENCH_CFLAGS
	fprintf(f, ",\n  \"cflags\": ");
	jstr(f, BENCH_CFLAGS);
#endif
	fprintf(f, ",\n  \"gmp_version\": ");
	jstr(f, gmp_version_string());
	fprintf(f, ",\n  \"openssl_version\": ");
	if (bench_openssl_version())
		jstr(f, bench_openssl_version());
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"sodium_version\": ");
	if (bench_sodium_version())
		jstr(f, bench_sodium_version());
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"timer\": ");
	jstr(f, bench_timer_name());
	fprintf(f, ",\n  \"timer_overhead_ticks\": %.1f,\n  \"ticks_per_ns\": %.6f,\n",
	        r->timer_overhead, r->ticks_per_ns);
	fprintf(f, "  \"calibration\": {\"method\": \"chains of 1000 dependent register-register "
	        "adds, 1 core cycle each, interleaved with the measurements\", "
	        "\"core_cycles_per_tick\": ");
	jstats(f, &r->calib);
	fprintf(f, ", \"samples\": %zu, \"first\": %.4f, \"last\": %.4f, \"core_ghz\": %.4f},\n",
	        r->calib_n, r->calib_first, r->calib_last, r->calib.median * r->ticks_per_ns);
	fprintf(f, "  \"rows\": [");
	for (size_t i = 0; i < r->nrows; i++) {
		const struct bench_row *w = &r->rows[i];
		fprintf(f, "%s\n    {\"kernel\": ", i ? "," : "");
		jstr(f, w->drv->name);
		if (strcmp(w->drv->name, w->drv->kernel) != 0) {
			fprintf(f, ", \"dispatch_kernel\": ");
			jstr(f, w->drv->kernel);
		}
		if (w->drv->jmh) {
			fprintf(f, ", \"benchmark\": ");
			jstr(f, w->drv->jmh);
		}
		fprintf(f, ", \"variant\": ");
		jstr(f, w->c->variant);
		fprintf(f, ", \"label\": ");
		jstr(f, w->c->label);
		fprintf(f, ", \"kind\": \"%s\", \"chosen\": %s, \"size\": %zu, \"unit\": ",
		        kind_name(w->c->kind), w->c->chosen ? "true" : "false", w->size);
		jstr(f, w->drv->unit);
		if (w->c->kind == BK_GMP_PEER) {
			fprintf(f, ", \"peer_note\": ");
			jstr(f, w->drv->peer_note);
		}
		if (w->drv->unit_bytes) {
			double bytes = (double)(w->size * w->drv->unit_bytes);
			fprintf(f, ", \"bytes\": %zu, \"cycles_per_byte\": {\"median\": %.5f, "
			        "\"p10\": %.5f, \"p90\": %.5f}, \"ops_per_s\": %.1f",
			        w->size * w->drv->unit_bytes, w->cyc.median / bytes, w->cyc.p10 / bytes,
			        w->cyc.p90 / bytes, w->ns_per_call > 0 ? 1e9 / w->ns_per_call : 0.0);
		}
		fprintf(f, ", \"cnt\": %zu, \"batch_calls\": %zu, \"cycles_per_call\": ", w->cnt,
		        w->batch_calls);
		jstats(f, &w->cyc);
		fprintf(f, ", \"cycles_per_unit\": %.4f, \"ns_per_call\": %.3f, ",
		        w->cyc.median / (double)w->size, w->ns_per_call);
		for (size_t k = 0; k < BENCH_MAX_PEERS && w->drv->peers[k].name; k++) {
			char key[48];
			if (!w->drv->peers[k].batch)
				continue;
			snprintf(key, sizeof key, "ratio_vs_%s", w->drv->peers[k].key);
			jratio(f, key, w->ratio_peer[k], &w->paired_peer[k]);
		}
		jratio(f, "ratio_vs_ref", w->ratio_ref, &w->paired_ref);
		if (r->baseline)
			fprintf(f, "\"ratio_vs_base\": {\"paired_median\": %.4f, \"paired_p25\": %.4f, "
			        "\"paired_p75\": %.4f, \"paired_p10\": %.4f, \"paired_p90\": %.4f, "
			        "\"n\": %zu}, ", w->paired_base.median, w->paired_base.p25,
			        w->paired_base.p75, w->paired_base.p10, w->paired_base.p90, w->cnt);
		fprintf(f, "\"check\": \"%s\"}", w->check);
	}
	fprintf(f, "\n  ]\n}\n");
	return fclose(f);
}
