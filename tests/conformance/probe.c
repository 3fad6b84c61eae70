/* SPDX-License-Identifier: MIT
 *
 * mpcalc conformance probe: asks a real DPDK (EAL initialised by this
 * process) what it allocates for mempools, mbuf pools, RIBs and FIBs.
 *
 * stdout carries only JSON lines: one platform line after rte_eal_init(),
 * then exactly one line per command read from stdin.  Everything else
 * (EAL logs, driver printf()s) goes to stderr: fd 1 is redirected to fd 2
 * right at start-up and the JSON goes to a private dup of the original fd 1.
 *
 * Build: gcc -O1 probe.c -o probe $(pkg-config --cflags --libs libdpdk)
 * See README.md next to this file for the protocol.
 */
#define _GNU_SOURCE
#define ALLOW_EXPERIMENTAL_API 1 /* rte_stack.h inlines rte_atomic128_cmp_exchange */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_fib.h>
#include <rte_fib6.h>
#include <rte_hash.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memory.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_rib.h>
#include <rte_rib6.h>
#include <rte_ring.h>
#include <rte_stack.h>
#include <rte_version.h>

#define MAX_TOK 16
#define MAX_MZ 2560	/* >= RTE_MAX_MEMZONE of common builds */

static FILE *out;	/* the JSON channel (original stdout) */

/* ------------------------------------------------------------------ */
/* small JSON writer                                                    */

static void
jstr(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void
jend(void)
{
	fputs("}\n", out);
	fflush(out);
}

/* ------------------------------------------------------------------ */
/* errno names                                                          */

static const char *
errno_name(int e)
{
	static char buf[32];

	switch (e) {
	case 0: return NULL;
#define E(x) case x: return #x
	E(EPERM); E(ENOENT); E(ESRCH); E(EINTR); E(EIO); E(ENXIO); E(E2BIG);
	E(ENOEXEC); E(EBADF); E(ECHILD); E(EAGAIN); E(ENOMEM); E(EACCES);
	E(EFAULT); E(EBUSY); E(EEXIST); E(EXDEV); E(ENODEV); E(ENOTDIR);
	E(EISDIR); E(EINVAL); E(ENFILE); E(EMFILE); E(ENOTTY); E(EFBIG);
	E(ENOSPC); E(ESPIPE); E(EROFS); E(EMLINK); E(EPIPE); E(EDOM);
	E(ERANGE); E(EDEADLK); E(ENAMETOOLONG); E(ENOLCK); E(ENOSYS);
	E(ENOTEMPTY); E(ELOOP); E(ENOMSG); E(EIDRM); E(ENODATA); E(ETIME);
	E(EOVERFLOW); E(EBADMSG); E(ENOTSUP); E(ENOBUFS); E(EALREADY);
	E(EINPROGRESS); E(ECANCELED); E(ETIMEDOUT); E(EDQUOT); E(ENOTRECOVERABLE);
	E(E_RTE_SECONDARY); E(E_RTE_NO_CONFIG);
#undef E
	default:
		snprintf(buf, sizeof(buf), "E%d", e);
		return buf;
	}
}

static void
jerrno(int e)
{
	const char *n = errno_name(e);

	fputs("\"errno\": ", out);
	if (n)
		jstr(n);
	else
		fputs("null", out);
	fprintf(out, ", \"errno_num\": %d", e);
}

/* ------------------------------------------------------------------ */
/* parsing helpers: all fail loudly through perr                        */

static char perr[160];

static bool
p_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (s == NULL || *s == '\0' || *s == '-') {
		snprintf(perr, sizeof(perr), "bad unsigned '%s'", s ? s : "");
		return false;
	}
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end || x > max) {
		snprintf(perr, sizeof(perr), "bad/out of range unsigned '%s'", s);
		return false;
	}
	*v = x;
	return true;
}

static bool
p_u32(const char *s, uint32_t *v)
{
	uint64_t x;

	if (!p_u64(s, UINT32_MAX, &x))
		return false;
	*v = (uint32_t)x;
	return true;
}

static bool
p_int(const char *s, int *v)
{
	char *end;
	long long x;

	if (s == NULL || *s == '\0') {
		snprintf(perr, sizeof(perr), "missing signed int");
		return false;
	}
	errno = 0;
	x = strtoll(s, &end, 0);
	if (errno || *end || x < INT_MIN || x > INT_MAX) {
		snprintf(perr, sizeof(perr), "bad/out of range int '%s'", s);
		return false;
	}
	*v = (int)x;
	return true;
}

/* ------------------------------------------------------------------ */
/* memzone / heap snapshots                                             */

struct mzsnap {
	unsigned n;
	char name[MAX_MZ][RTE_MEMZONE_NAMESIZE];
	size_t len[MAX_MZ];
	const void *addr[MAX_MZ];
};

static void
mz_cb(const struct rte_memzone *mz, void *arg)
{
	struct mzsnap *s = arg;

	if (s->n >= MAX_MZ)
		return;
	snprintf(s->name[s->n], RTE_MEMZONE_NAMESIZE, "%s", mz->name);
	s->len[s->n] = mz->len;
	s->addr[s->n] = mz->addr;
	s->n++;
}

static void
mz_take(struct mzsnap *s)
{
	s->n = 0;
	rte_memzone_walk(mz_cb, s);
}

static bool
mz_has(const struct mzsnap *s, const char *name, const void *addr)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->name[i], name) == 0 &&
		    (addr == NULL || s->addr[i] == addr))
			return true;
	return false;
}

struct heapsnap {
	uint64_t allocsz, count, totalsz, freesz;
};

static void
heap_take(struct heapsnap *h)
{
	unsigned i;
	struct rte_malloc_socket_stats st;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < rte_socket_count(); i++) {
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) < 0)
			continue;
		h->allocsz += st.heap_allocsz_bytes;
		h->count += st.alloc_count;
		h->totalsz += st.heap_totalsz_bytes;
		h->freesz += st.heap_freesz_bytes;
	}
}

static struct mzsnap mz_before, mz_after, mz_tmp;
static struct heapsnap heap_before, heap_after;

static void
measure_begin(void)
{
	mz_take(&mz_before);
	heap_take(&heap_before);
	rte_errno = 0;
	errno = 0;
}

/* the new memzones of this command (after vs before) */
static void
measure_end(void)
{
	heap_take(&heap_after);
	mz_take(&mz_after);
}

static void
emit_measure(void)
{
	unsigned i;
	bool first = true;

	fputs(", \"memzones\": [", out);
	for (i = 0; i < mz_after.n; i++) {
		if (mz_has(&mz_before, mz_after.name[i], mz_after.addr[i]))
			continue;
		fputs(first ? "" : ", ", out);
		first = false;
		fputs("{\"name\": ", out);
		jstr(mz_after.name[i]);
		fprintf(out, ", \"len\": %zu}", mz_after.len[i]);
	}
	fputs("]", out);
	fprintf(out, ", \"heap_delta\": %" PRId64 ", \"alloc_count_delta\": %" PRId64,
		(int64_t)(heap_after.allocsz - heap_before.allocsz),
		(int64_t)(heap_after.count - heap_before.count));
	fprintf(out, ", \"heap_total\": %" PRIu64 ", \"heap_free\": %" PRIu64,
		heap_after.totalsz, heap_after.freesz);
}

/* After freeing: which of the command's new memzones still exist. */
static void
emit_remaining(const char *key)
{
	unsigned i;
	bool first = true;

	mz_take(&mz_tmp);
	fprintf(out, ", \"%s\": [", key);
	for (i = 0; i < mz_after.n; i++) {
		if (mz_has(&mz_before, mz_after.name[i], mz_after.addr[i]))
			continue;
		if (!mz_has(&mz_tmp, mz_after.name[i], mz_after.addr[i]))
			continue;
		fputs(first ? "" : ", ", out);
		first = false;
		jstr(mz_after.name[i]);
	}
	fputs("]", out);
}

/* ------------------------------------------------------------------ */
/* kept objects (created with trailing "keep")                          */

enum kind { K_POOL, K_RIB, K_RIB6, K_FIB, K_FIB6, K_RING, K_LPM, K_LPM6, K_HASH };

struct kept {
	char name[64];
	enum kind kind;
	void *obj;
	unsigned nmz;
	char mz[8][RTE_MEMZONE_NAMESIZE];
	struct kept *next;
};

static struct kept *kept_list;

static void
obj_free(enum kind k, void *o)
{
	switch (k) {
	case K_POOL: rte_mempool_free(o); break;
	case K_RIB: rte_rib_free(o); break;
	case K_RIB6: rte_rib6_free(o); break;
	case K_FIB: rte_fib_free(o); break;
	case K_FIB6: rte_fib6_free(o); break;
	case K_RING: rte_ring_free(o); break;
	case K_LPM: rte_lpm_free(o); break;
	case K_LPM6: rte_lpm6_free(o); break;
	case K_HASH: rte_hash_free(o); break;
	}
}

static struct kept *
kept_find(const char *name)
{
	struct kept *k;

	for (k = kept_list; k; k = k->next)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

/* Opening of every create reply: {"cmd": ..., "name": ..., "ok": ... */
static void
reply_head(const char *cmd, const char *name, const void *obj)
{
	fprintf(out, "{\"cmd\": \"%s\", \"name\": ", cmd);
	jstr(name);
	fprintf(out, ", \"ok\": %s", obj ? "true" : "false");
}

/* Common tail of every create command; obj may be NULL (failure). */
static void
finish_create(const char *name, enum kind kind, void *obj, int err, bool keep)
{
	fputs(", ", out);
	jerrno(obj ? 0 : err);
	emit_measure();
	if (obj == NULL) {
		emit_remaining("leaked");
	} else if (keep) {
		struct kept *k = calloc(1, sizeof(*k));
		unsigned i;

		snprintf(k->name, sizeof(k->name), "%s", name);
		k->kind = kind;
		k->obj = obj;
		for (i = 0; i < mz_after.n && k->nmz < 8; i++)
			if (!mz_has(&mz_before, mz_after.name[i], mz_after.addr[i]))
				snprintf(k->mz[k->nmz++], RTE_MEMZONE_NAMESIZE,
					 "%s", mz_after.name[i]);
		k->next = kept_list;
		kept_list = k;
		fputs(", \"kept\": true", out);
	} else {
		obj_free(kind, obj);
		emit_remaining("leaked");
	}
	jend();
}

/* ------------------------------------------------------------------ */
/* commands                                                             */

static void
emit_pool_fields(struct rte_mempool *mp)
{
	struct rte_mempool_memhdr *hdr;
	const struct rte_mempool_ops *ops;
	bool first = true;

	fprintf(out, ", \"objsz\": {\"header_size\": %u, \"elt_size\": %u, "
		"\"trailer_size\": %u, \"total_size\": %u}",
		mp->header_size, mp->elt_size, mp->trailer_size,
		mp->header_size + mp->elt_size + mp->trailer_size);
	fprintf(out, ", \"size\": %u, \"cache_size\": %u, "
		"\"private_data_size\": %u, \"flags\": %u",
		mp->size, mp->cache_size, mp->private_data_size, mp->flags);
	ops = rte_mempool_get_ops(mp->ops_index);
	fputs(", \"ops_name\": ", out);
	jstr(ops ? ops->name : "");
	fprintf(out, ", \"nb_mem_chunks\": %u, \"populated_size\": %u",
		mp->nb_mem_chunks, mp->populated_size);
	fputs(", \"chunk_lens\": [", out);
	STAILQ_FOREACH(hdr, &mp->mem_list, next) {
		fprintf(out, "%s%zu", first ? "" : ", ", hdr->len);
		first = false;
	}
	fputs("]", out);
}

static void
cmd_pool(char **t, int nt, bool keep)
{
	uint32_t n, elt, cache, priv, flags;
	struct rte_mempool *mp;
	int err;

	if (nt != 7 || !p_u32(t[2], &n) || !p_u32(t[3], &elt) ||
	    !p_u32(t[4], &cache) || !p_u32(t[5], &priv) || !p_u32(t[6], &flags)) {
		if (nt != 7)
			snprintf(perr, sizeof(perr), "usage: pool NAME N ELT CACHE PRIV FLAGS [keep]");
		goto bad;
	}
	measure_begin();
	mp = rte_mempool_create(t[1], n, elt, cache, priv, NULL, NULL, NULL,
				NULL, SOCKET_ID_ANY, flags);
	err = rte_errno;
	measure_end();
	reply_head("pool", t[1], mp);
	if (mp)
		emit_pool_fields(mp);
	finish_create(t[1], K_POOL, mp, err, keep);
	return;
bad:
	fputs("{\"cmd\": \"pool\", \"ok\": false, \"error\": ", out);
	jstr(perr);
	jend();
}

static void
cmd_mbuf(char **t, int nt, bool keep)
{
	uint32_t n, cache, priv, room;
	struct rte_mempool *mp;
	int err;

	if (nt != 6 || !p_u32(t[2], &n) || !p_u32(t[3], &cache) ||
	    !p_u32(t[4], &priv) || !p_u32(t[5], &room)) {
		if (nt != 6)
			snprintf(perr, sizeof(perr), "usage: mbuf NAME N CACHE PRIV DATA_ROOM [keep]");
		goto bad;
	}
	measure_begin();
	mp = rte_pktmbuf_pool_create(t[1], n, cache, (uint16_t)priv,
				     (uint16_t)room, SOCKET_ID_ANY);
	err = rte_errno;
	measure_end();
	reply_head("mbuf", t[1], mp);
	if (mp) {
		emit_pool_fields(mp);
		fprintf(out, ", \"mbuf_priv_size\": %u, \"mbuf_data_room_size\": %u",
			rte_pktmbuf_priv_size(mp), rte_pktmbuf_data_room_size(mp));
	}
	finish_create(t[1], K_POOL, mp, err, keep);
	return;
bad:
	fputs("{\"cmd\": \"mbuf\", \"ok\": false, \"error\": ", out);
	jstr(perr);
	jend();
}

static void
cmd_calc(char **t, int nt)
{
	uint32_t elt, flags, r;
	struct rte_mempool_objsz sz;

	if (nt != 3 || !p_u32(t[1], &elt) || !p_u32(t[2], &flags)) {
		if (nt != 3)
			snprintf(perr, sizeof(perr), "usage: calc ELT FLAGS");
		fputs("{\"cmd\": \"calc\", \"ok\": false, \"error\": ", out);
		jstr(perr);
		jend();
		return;
	}
	memset(&sz, 0, sizeof(sz));
	r = rte_mempool_calc_obj_size(elt, flags, &sz);
	fprintf(out, "{\"cmd\": \"calc\", \"ok\": true, \"ret\": %u, "
		"\"objsz\": {\"header_size\": %u, \"elt_size\": %u, "
		"\"trailer_size\": %u, \"total_size\": %u}",
		r, sz.header_size, sz.elt_size, sz.trailer_size, sz.total_size);
	jend();
}

/* empty pools reused by memsize, keyed by (elt, flags) */
struct cmpool {
	uint32_t elt, flags;
	struct rte_mempool *mp;
	struct cmpool *next;
};
static struct cmpool *cm_list;
static unsigned cm_count;

static void
cmd_memsize(char **t, int nt)
{
	uint32_t elt, flags, num, shift = 0;
	struct cmpool *c;
	size_t min_chunk = 0, align = 0;
	ssize_t r;
	int err = 0;

	if (nt != 5 || !p_u32(t[1], &elt) || !p_u32(t[2], &flags) ||
	    !p_u32(t[3], &num) || !p_u32(t[4], &shift) || shift > 40) {
		if (nt != 5 || shift > 40)
			snprintf(perr, sizeof(perr), "usage: memsize ELT FLAGS OBJ_NUM PG_SHIFT(0..40)");
		fputs("{\"cmd\": \"memsize\", \"ok\": false, \"error\": ", out);
		jstr(perr);
		jend();
		return;
	}
	for (c = cm_list; c; c = c->next)
		if (c->elt == elt && c->flags == flags)
			break;
	if (c == NULL) {
		char name[RTE_MEMPOOL_NAMESIZE];
		struct rte_mempool *mp;

		snprintf(name, sizeof(name), "cm%u", cm_count++);
		rte_errno = 0;
		mp = rte_mempool_create_empty(name, 1, elt, 0, 0,
					      SOCKET_ID_ANY, flags);
		if (mp == NULL) {
			err = rte_errno;
			fputs("{\"cmd\": \"memsize\", \"ok\": false, ", out);
			jerrno(err);
			fputs(", \"error\": \"rte_mempool_create_empty failed\"", out);
			jend();
			return;
		}
		c = calloc(1, sizeof(*c));
		c->elt = elt;
		c->flags = flags;
		c->mp = mp;
		c->next = cm_list;
		cm_list = c;
	}
	r = rte_mempool_op_calc_mem_size_default(c->mp, num, shift,
						 &min_chunk, &align);
	fprintf(out, "{\"cmd\": \"memsize\", \"ok\": %s, \"mem_size\": %zd, "
		"\"min_chunk_size\": %zu, \"align\": %zu, "
		"\"objsz\": {\"header_size\": %u, \"elt_size\": %u, "
		"\"trailer_size\": %u, \"total_size\": %u}",
		r >= 0 ? "true" : "false", r, min_chunk, align,
		c->mp->header_size, c->mp->elt_size, c->mp->trailer_size,
		c->mp->header_size + c->mp->elt_size + c->mp->trailer_size);
	jend();
}

static void
cmd_rib(char **t, int nt, bool v6, bool keep)
{
	const char *cmd = v6 ? "rib6" : "rib";
	uint64_t ext;
	int maxn, err;
	void *obj;

	if (nt != 4 || !p_int(t[2], &maxn) || !p_u64(t[3], SIZE_MAX, &ext)) {
		if (nt != 4)
			snprintf(perr, sizeof(perr), "usage: %s NAME MAX_NODES EXT_SZ [keep]", cmd);
		fprintf(out, "{\"cmd\": \"%s\", \"ok\": false, \"error\": ", cmd);
		jstr(perr);
		jend();
		return;
	}
	measure_begin();
	if (v6) {
		struct rte_rib6_conf c = { .ext_sz = ext, .max_nodes = maxn };

		obj = rte_rib6_create(t[1], SOCKET_ID_ANY, &c);
	} else {
		struct rte_rib_conf c = { .ext_sz = ext, .max_nodes = maxn };

		obj = rte_rib_create(t[1], SOCKET_ID_ANY, &c);
	}
	err = rte_errno;
	measure_end();
	reply_head(cmd, t[1], obj);
	finish_create(t[1], v6 ? K_RIB6 : K_RIB, obj, err, keep);
}

static void
cmd_fib(char **t, int nt, bool v6, bool keep)
{
	const char *cmd = v6 ? "fib6" : "fib";
	uint32_t type, nh, ntbl8, ext;
	int maxr, err;
	void *obj;

	if (nt != 7 || !p_int(t[2], &maxr) || !p_u32(t[3], &type) ||
	    !p_u32(t[4], &nh) || !p_u32(t[5], &ntbl8) || !p_u32(t[6], &ext)) {
		if (nt != 7)
			snprintf(perr, sizeof(perr), "usage: %s NAME MAX_ROUTES TYPE NH_SZ NUM_TBL8 EXT_SZ [keep]", cmd);
		fprintf(out, "{\"cmd\": \"%s\", \"ok\": false, \"error\": ", cmd);
		jstr(perr);
		jend();
		return;
	}
	measure_begin();
	if (v6) {
		struct rte_fib6_conf c;

		memset(&c, 0, sizeof(c));
		c.type = (enum rte_fib6_type)type;
		c.default_nh = 0;
		c.max_routes = maxr;
		c.rib_ext_sz = ext;
		c.trie.nh_sz = (enum rte_fib_trie_nh_sz)nh;
		c.trie.num_tbl8 = ntbl8;
		obj = rte_fib6_create(t[1], SOCKET_ID_ANY, &c);
	} else {
		struct rte_fib_conf c;

		memset(&c, 0, sizeof(c));
		c.type = (enum rte_fib_type)type;
		c.default_nh = 0;
		c.max_routes = maxr;
		c.rib_ext_sz = ext;
		c.dir24_8.nh_sz = (enum rte_fib_dir24_8_nh_sz)nh;
		c.dir24_8.num_tbl8 = ntbl8;
		obj = rte_fib_create(t[1], SOCKET_ID_ANY, &c);
	}
	err = rte_errno;
	measure_end();
	reply_head(cmd, t[1], obj);
	finish_create(t[1], v6 ? K_FIB6 : K_FIB, obj, err, keep);
}

/* fibadd NAME FAMILY N, followed by N lines "PREFIX/DEPTH NEXTHOP".
 * The N lines are always consumed, even on error, to keep the stream
 * in sync.
 */
static void
cmd_fibadd(char **t, int nt)
{
	uint32_t fam = 0, n = 0, i;
	struct kept *k = NULL;
	char *line = NULL;
	size_t cap = 0;
	long added = 0, failed_at = -1;
	int ferr = 0, ret;
	const char *bad = NULL;
	char badbuf[200];

	if (nt != 4 || !p_u32(t[2], &fam) || !p_u32(t[3], &n) ||
	    (fam != 4 && fam != 6))
		bad = "usage: fibadd NAME 4|6 N";
	if (!bad) {
		k = kept_find(t[1]);
		if (k == NULL || (fam == 4 && k->kind != K_FIB) ||
		    (fam == 6 && k->kind != K_FIB6))
			bad = "no kept fib/fib6 of that name and family";
	}
	for (i = 0; i < n; i++) {
		char *slash, *sp, *pfx;
		uint64_t nhv, depth;
		uint8_t a6[16];
		struct in_addr a4;

		if (getline(&line, &cap, stdin) < 0) {
			bad = "EOF inside fibadd";
			break;
		}
		if (bad || failed_at >= 0)
			continue;	/* just consume */
		line[strcspn(line, "\r\n")] = '\0';
		pfx = line + strspn(line, " \t");
		sp = strpbrk(pfx, " \t");
		slash = strchr(pfx, '/');
		if (sp == NULL || slash == NULL || slash > sp) {
			snprintf(badbuf, sizeof(badbuf), "bad route line %u", i);
			bad = badbuf;
			continue;
		}
		*sp = '\0';
		*slash = '\0';
		sp++;
		sp += strspn(sp, " \t");
		if (!p_u64(slash + 1, fam == 4 ? 32 : 128, &depth) ||
		    !p_u64(sp, UINT64_MAX, &nhv) ||
		    inet_pton(fam == 4 ? AF_INET : AF_INET6, pfx,
			      fam == 4 ? (void *)&a4 : (void *)a6) != 1) {
			snprintf(badbuf, sizeof(badbuf), "bad route line %u", i);
			bad = badbuf;
			continue;
		}
		rte_errno = 0;
		if (fam == 4)
			ret = rte_fib_add(k->obj, ntohl(a4.s_addr),
					  (uint8_t)depth, nhv);
		else
#if RTE_VERSION >= RTE_VERSION_NUM(24, 11, 0, 0)
			/* 24.11 made the address a struct rte_ipv6_addr */
			ret = rte_fib6_add(k->obj,
					   (const struct rte_ipv6_addr *)a6,
					   (uint8_t)depth, nhv);
#else
			ret = rte_fib6_add(k->obj, a6, (uint8_t)depth, nhv);
#endif
		if (ret == 0) {
			added++;
		} else {
			failed_at = i;
			ferr = ret < 0 ? -ret : (rte_errno ? rte_errno : ret);
		}
	}
	free(line);
	fputs("{\"cmd\": \"fibadd\"", out);
	if (bad) {
		fputs(", \"ok\": false, \"error\": ", out);
		jstr(bad);
		fprintf(out, ", \"added\": %ld", added);
		jend();
		return;
	}
	fprintf(out, ", \"ok\": true, \"added\": %ld, \"failed_at\": ", added);
	if (failed_at >= 0)
		fprintf(out, "%ld, ", failed_at);
	else
		fputs("null, ", out);
	jerrno(ferr);
	jend();
}

/* ------------------------------------------------------------------ */
/* issue 13: rings, mempool drivers (--ops), LPM, LPM6, hash           */

static const char *
sync_name(enum rte_ring_sync_type t)
{
	switch (t) {
	case RTE_RING_SYNC_MT: return "mt";
	case RTE_RING_SYNC_ST: return "st";
	case RTE_RING_SYNC_MT_RTS: return "mt_rts";
	case RTE_RING_SYNC_MT_HTS: return "mt_hts";
	default: return "?";
	}
}

/* ring NAME COUNT ESIZE FLAGS [keep]: rte_ring_create_elem */
static void
cmd_ring(char **t, int nt, bool keep)
{
	uint32_t count, esize, flags;
	struct rte_ring *r;
	int err;

	if (nt != 5 || !p_u32(t[2], &count) || !p_u32(t[3], &esize) || !p_u32(t[4], &flags)) {
		if (nt != 5)
			snprintf(perr, sizeof(perr), "usage: ring NAME COUNT ESIZE FLAGS [keep]");
		fputs("{\"cmd\": \"ring\", \"ok\": false, \"error\": ", out);
		jstr(perr);
		jend();
		return;
	}
	measure_begin();
	r = rte_ring_create_elem(t[1], esize, count, SOCKET_ID_ANY, flags);
	err = rte_errno;
	measure_end();
	reply_head("ring", t[1], r);
	if (r) {
		fprintf(out, ", \"size\": %u, \"mask\": %u, \"capacity\": %u, \"flags\": %u, \"prod_sync\": \"%s\", "
			"\"cons_sync\": \"%s\", \"ring_name\": ", r->size, r->mask, r->capacity, r->flags,
			sync_name(r->prod.sync_type), sync_name(r->cons.sync_type));
		jstr(r->name);
		if (r->prod.sync_type == RTE_RING_SYNC_MT_RTS)
			fprintf(out, ", \"prod_htd_max\": %u", rte_ring_get_prod_htd_max(r));
		if (r->cons.sync_type == RTE_RING_SYNC_MT_RTS)
			fprintf(out, ", \"cons_htd_max\": %u", rte_ring_get_cons_htd_max(r));
	}
	finish_create(t[1], K_RING, r, err, keep);
}

/* ringmemsize ESIZE COUNT: rte_ring_get_memsize_elem */
static void
cmd_ringmemsize(char **t, int nt)
{
	uint32_t esize, count;
	ssize_t r;

	if (nt != 3 || !p_u32(t[1], &esize) || !p_u32(t[2], &count)) {
		fputs("{\"cmd\": \"ringmemsize\", \"ok\": false, \"error\": \"usage: ringmemsize ESIZE COUNT\"", out);
		jend();
		return;
	}
	r = rte_ring_get_memsize_elem(esize, count);
	fprintf(out, "{\"cmd\": \"ringmemsize\", \"ok\": %s, \"memsize\": %zd", r >= 0 ? "true" : "false", r);
	jend();
}

/* poolops NAME N ELT CACHE PRIV FLAGS OPS [keep]: create_empty + set_ops_byname + populate_default */
static void
cmd_poolops(char **t, int nt, bool keep)
{
	uint32_t n, elt, cache, priv, flags;
	struct rte_mempool *mp;
	int err = 0, ret;

	if (nt != 8 || !p_u32(t[2], &n) || !p_u32(t[3], &elt) ||
	    !p_u32(t[4], &cache) || !p_u32(t[5], &priv) || !p_u32(t[6], &flags)) {
		if (nt != 8)
			snprintf(perr, sizeof(perr), "usage: poolops NAME N ELT CACHE PRIV FLAGS OPS [keep]");
		fputs("{\"cmd\": \"poolops\", \"ok\": false, \"error\": ", out);
		jstr(perr);
		jend();
		return;
	}
	measure_begin();
	mp = rte_mempool_create_empty(t[1], n, elt, cache, priv, SOCKET_ID_ANY, flags);
	if (mp == NULL) {
		err = rte_errno;
	} else {
		ret = rte_mempool_set_ops_byname(mp, t[7], NULL);
		if (ret == 0)
			ret = rte_mempool_populate_default(mp);
		if (ret < 0) {
			rte_mempool_free(mp);
			mp = NULL;
			err = -ret;
		}
	}
	measure_end();
	reply_head("poolops", t[1], mp);
	if (mp)
		emit_pool_fields(mp);
	finish_create(t[1], K_POOL, mp, err, keep);
}

/* mbufops NAME N CACHE PRIV DATA_ROOM OPS [keep]: rte_pktmbuf_pool_create_by_ops */
static void
cmd_mbufops(char **t, int nt, bool keep)
{
	uint32_t n, cache, priv, room;
	struct rte_mempool *mp;
	int err;

	if (nt != 7 || !p_u32(t[2], &n) || !p_u32(t[3], &cache) ||
	    !p_u32(t[4], &priv) || !p_u32(t[5], &room)) {
		if (nt != 7)
			snprintf(perr, sizeof(perr), "usage: mbufops NAME N CACHE PRIV DATA_ROOM OPS [keep]");
		fputs("{\"cmd\": \"mbufops\", \"ok\": false, \"error\": ", out);
		jstr(perr);
		jend();
		return;
	}
	measure_begin();
	mp = rte_pktmbuf_pool_create_by_ops(t[1], n, cache, (uint16_t)priv, (uint16_t)room, SOCKET_ID_ANY, t[6]);
	err = rte_errno;
	measure_end();
	reply_head("mbufops", t[1], mp);
	if (mp)
		emit_pool_fields(mp);
	finish_create(t[1], K_POOL, mp, err, keep);
}

/* lpm NAME MAX_RULES NUMBER_TBL8S [keep]: rte_lpm_create */
static void
cmd_lpm(char **t, int nt, bool keep)
{
	struct rte_lpm_config c;
	struct rte_lpm *lpm;
	int err;

	memset(&c, 0, sizeof(c));
	if (nt != 4 || !p_u32(t[2], &c.max_rules) || !p_u32(t[3], &c.number_tbl8s)) {
		if (nt != 4)
			snprintf(perr, sizeof(perr), "usage: lpm NAME MAX_RULES NUMBER_TBL8S [keep]");
		fputs("{\"cmd\": \"lpm\", \"ok\": false, \"error\": ", out);
		jstr(perr);
		jend();
		return;
	}
	measure_begin();
	lpm = rte_lpm_create(t[1], SOCKET_ID_ANY, &c);
	err = rte_errno;
	measure_end();
	reply_head("lpm", t[1], lpm);
	finish_create(t[1], K_LPM, lpm, err, keep);
}

/* lpm6 NAME MAX_RULES NUMBER_TBL8S [keep]: rte_lpm6_create */
static void
cmd_lpm6(char **t, int nt, bool keep)
{
	struct rte_lpm6_config c;
	struct rte_lpm6 *lpm;
	int err;

	memset(&c, 0, sizeof(c));
	if (nt != 4 || !p_u32(t[2], &c.max_rules) || !p_u32(t[3], &c.number_tbl8s)) {
		if (nt != 4)
			snprintf(perr, sizeof(perr), "usage: lpm6 NAME MAX_RULES NUMBER_TBL8S [keep]");
		fputs("{\"cmd\": \"lpm6\", \"ok\": false, \"error\": ", out);
		jstr(perr);
		jend();
		return;
	}
	measure_begin();
	lpm = rte_lpm6_create(t[1], SOCKET_ID_ANY, &c);
	err = rte_errno;
	measure_end();
	reply_head("lpm6", t[1], lpm);
	finish_create(t[1], K_LPM6, lpm, err, keep);
}

/* hash NAME ENTRIES KEY_LEN EXTRA_FLAGS [keep]: rte_hash_create */
static void
cmd_hash(char **t, int nt, bool keep)
{
	struct rte_hash_parameters hp;
	uint32_t entries, key_len, flags;
	struct rte_hash *h;
	int err;

	if (nt != 5 || !p_u32(t[2], &entries) || !p_u32(t[3], &key_len) || !p_u32(t[4], &flags)) {
		if (nt != 5)
			snprintf(perr, sizeof(perr), "usage: hash NAME ENTRIES KEY_LEN EXTRA_FLAGS [keep]");
		fputs("{\"cmd\": \"hash\", \"ok\": false, \"error\": ", out);
		jstr(perr);
		jend();
		return;
	}
	memset(&hp, 0, sizeof(hp));
	hp.name = t[1];
	hp.entries = entries;
	hp.key_len = key_len;
	hp.socket_id = SOCKET_ID_ANY;
	hp.extra_flag = (uint8_t)flags;
	measure_begin();
	h = rte_hash_create(&hp);
	err = rte_errno;
	measure_end();
	reply_head("hash", t[1], h);
	if (h)
		fprintf(out, ", \"max_key_id\": %d", rte_hash_max_key_id(h));
	finish_create(t[1], K_HASH, h, err, keep);
}

/* lpmadd NAME 4|6 N, then N lines "PREFIX/DEPTH NEXTHOP": rte_lpm_add / rte_lpm6_add on a kept table */
static void
cmd_lpmadd(char **t, int nt)
{
	uint32_t fam = 0, n = 0, i;
	struct kept *k = NULL;
	char *line = NULL;
	size_t cap = 0;
	long added = 0, failed_at = -1;
	int ferr = 0, ret;
	const char *bad = NULL;
	char badbuf[200];

	if (nt != 4 || !p_u32(t[2], &fam) || !p_u32(t[3], &n) || (fam != 4 && fam != 6))
		bad = "usage: lpmadd NAME 4|6 N";
	if (!bad) {
		k = kept_find(t[1]);
		if (k == NULL || (fam == 4 && k->kind != K_LPM) || (fam == 6 && k->kind != K_LPM6))
			bad = "no kept lpm/lpm6 of that name and family";
	}
	for (i = 0; i < n; i++) {
		char *slash, *sp, *pfx;
		uint64_t nhv, depth;
		uint8_t a6[16];
		struct in_addr a4;

		if (getline(&line, &cap, stdin) < 0) {
			bad = "EOF inside lpmadd";
			break;
		}
		if (bad || failed_at >= 0)
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		pfx = line + strspn(line, " \t");
		sp = strpbrk(pfx, " \t");
		slash = strchr(pfx, '/');
		if (sp == NULL || slash == NULL || slash > sp) {
			snprintf(badbuf, sizeof(badbuf), "bad route line %u", i);
			bad = badbuf;
			continue;
		}
		*sp = '\0';
		*slash = '\0';
		sp++;
		sp += strspn(sp, " \t");
		if (!p_u64(slash + 1, 255, &depth) || !p_u64(sp, UINT32_MAX, &nhv) ||
		    inet_pton(fam == 4 ? AF_INET : AF_INET6, pfx, fam == 4 ? (void *)&a4 : (void *)a6) != 1) {
			snprintf(badbuf, sizeof(badbuf), "bad route line %u", i);
			bad = badbuf;
			continue;
		}
		rte_errno = 0;
		if (fam == 4)
			ret = rte_lpm_add(k->obj, ntohl(a4.s_addr), (uint8_t)depth, (uint32_t)nhv);
		else
#if RTE_VERSION >= RTE_VERSION_NUM(24, 11, 0, 0)
			ret = rte_lpm6_add(k->obj, (const struct rte_ipv6_addr *)a6, (uint8_t)depth, (uint32_t)nhv);
#else
			ret = rte_lpm6_add(k->obj, a6, (uint8_t)depth, (uint32_t)nhv);
#endif
		if (ret == 0) {
			added++;
		} else {
			failed_at = i;
			ferr = ret < 0 ? -ret : ret;
		}
	}
	free(line);
	fputs("{\"cmd\": \"lpmadd\"", out);
	if (bad) {
		fputs(", \"ok\": false, \"error\": ", out);
		jstr(bad);
		fprintf(out, ", \"added\": %ld", added);
		jend();
		return;
	}
	fprintf(out, ", \"ok\": true, \"added\": %ld, \"failed_at\": ", added);
	if (failed_at >= 0)
		fprintf(out, "%ld, ", failed_at);
	else
		fputs("null, ", out);
	jerrno(ferr);
	jend();
}

static void
cmd_free(char **t, int nt)
{
	struct kept *k, **pp;
	unsigned i;
	bool first = true;

	if (nt != 2) {
		fputs("{\"cmd\": \"free\", \"ok\": false, \"error\": \"usage: free NAME\"", out);
		jend();
		return;
	}
	for (pp = &kept_list; *pp; pp = &(*pp)->next)
		if (strcmp((*pp)->name, t[1]) == 0)
			break;
	k = *pp;
	if (k == NULL) {
		fputs("{\"cmd\": \"free\", \"ok\": false, \"error\": \"no kept object of that name\"", out);
		jend();
		return;
	}
	*pp = k->next;
	heap_take(&heap_before);
	obj_free(k->kind, k->obj);
	heap_take(&heap_after);
	mz_take(&mz_tmp);
	fputs("{\"cmd\": \"free\", \"ok\": true, \"name\": ", out);
	jstr(k->name);
	fprintf(out, ", \"heap_delta\": %" PRId64 ", \"leaked\": [",
		(int64_t)(heap_after.allocsz - heap_before.allocsz));
	for (i = 0; i < k->nmz; i++) {
		if (!mz_has(&mz_tmp, k->mz[i], NULL))
			continue;
		fputs(first ? "" : ", ", out);
		first = false;
		jstr(k->mz[i]);
	}
	fputs("]", out);
	jend();
	free(k);
}

/* extras: mzlist, mzfree NAME, heap, malloc SIZE ALIGN */
static void
cmd_mzlist(void)
{
	unsigned i;

	mz_take(&mz_tmp);
	fputs("{\"cmd\": \"mzlist\", \"ok\": true, \"memzones\": [", out);
	for (i = 0; i < mz_tmp.n; i++) {
		fputs(i ? ", {\"name\": " : "{\"name\": ", out);
		jstr(mz_tmp.name[i]);
		fprintf(out, ", \"len\": %zu}", mz_tmp.len[i]);
	}
	fputs("]", out);
	jend();
}

static void
cmd_mzfree(char **t, int nt)
{
	const struct rte_memzone *mz = nt == 2 ? rte_memzone_lookup(t[1]) : NULL;
	int r = mz ? rte_memzone_free(mz) : -ENOENT;

	fprintf(out, "{\"cmd\": \"mzfree\", \"ok\": %s, ", r == 0 ? "true" : "false");
	jerrno(r < 0 ? -r : 0);
	jend();
}

static void
cmd_heap(void)
{
	struct heapsnap h;

	heap_take(&h);
	fprintf(out, "{\"cmd\": \"heap\", \"ok\": true, \"heap_alloc\": %" PRIu64
		", \"alloc_count\": %" PRIu64 ", \"heap_total\": %" PRIu64
		", \"heap_free\": %" PRIu64, h.allocsz, h.count, h.totalsz, h.freesz);
	jend();
}

static void
cmd_malloc(char **t, int nt)
{
	uint64_t size, align;
	void *p;
	int err;

	if (nt != 3 || !p_u64(t[1], SIZE_MAX, &size) ||
	    !p_u64(t[2], UINT32_MAX, &align)) {
		fputs("{\"cmd\": \"malloc\", \"ok\": false, \"error\": \"usage: malloc SIZE ALIGN\"", out);
		jend();
		return;
	}
	measure_begin();
	p = rte_malloc(NULL, size, (unsigned)align);
	err = rte_errno;
	measure_end();
	fprintf(out, "{\"cmd\": \"malloc\", \"ok\": %s, ", p ? "true" : "false");
	jerrno(p ? 0 : err);
	emit_measure();
	rte_free(p);
	jend();
}

/* ------------------------------------------------------------------ */
/* dumps for `mpcalc inspect` (issue 8): DPDK's own text, as a JSON string */

/* Run fn(f, arg) on a memory stream and reply {"cmd": cmd, "ok": true, "text": "..."}. */
static void
reply_text(const char *cmd, void (*fn)(FILE *, void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL) {
		fprintf(out, "{\"cmd\": \"%s\", \"ok\": false, ", cmd);
		jerrno(errno);
		jend();
		return;
	}
	fn(f, arg);
	fclose(f);
	fprintf(out, "{\"cmd\": \"%s\", \"ok\": true, \"text\": ", cmd);
	jstr(buf ? buf : "");
	jend();
	free(buf);
}

static void
dump_one_pool(FILE *f, void *arg)
{
	rte_mempool_dump(f, arg);
}

static void
dump_all_pools(FILE *f, void *arg __rte_unused)
{
	rte_mempool_list_dump(f);
}

static void
dump_memzones(FILE *f, void *arg __rte_unused)
{
	rte_memzone_dump(f);
}

/* dump NAME: rte_mempool_dump of one pool; dump (no name): rte_mempool_list_dump */
static void
cmd_dump(char **t, int nt)
{
	struct rte_mempool *mp;

	if (nt == 1) {
		reply_text("dump", dump_all_pools, NULL);
		return;
	}
	mp = nt == 2 ? rte_mempool_lookup(t[1]) : NULL;
	if (mp == NULL) {
		fputs("{\"cmd\": \"dump\", \"ok\": false, \"error\": \"usage: dump [NAME] (NAME: an existing mempool)\"", out);
		jend();
		return;
	}
	reply_text("dump", dump_one_pool, mp);
}

/* mzdump: rte_memzone_dump */
static void
cmd_mzdump(char **t __rte_unused, int nt __rte_unused)
{
	reply_text("mzdump", dump_memzones, NULL);
}

/* ------------------------------------------------------------------ */

static int
msl_cb(const struct rte_memseg_list *msl, void *arg)
{
	uint64_t *min = arg;

	/* same filter as mempool's get_min_page_size(SOCKET_ID_ANY) */
	if (msl->external == 0 && msl->page_sz < *min)
		*min = msl->page_sz;
	return 0;
}

static void
print_platform(void)
{
	uint64_t pg;

	if (rte_eal_has_hugepages()) {
		pg = UINT64_MAX;
		rte_memseg_list_walk(msl_cb, &pg);
		if (pg == UINT64_MAX)
			pg = (uint64_t)sysconf(_SC_PAGESIZE);
	} else {
		pg = (uint64_t)sysconf(_SC_PAGESIZE);
	}
	fprintf(out, "{\"platform\": {\"cache_line\": %d, \"mempool_align\": %d, "
		"\"max_lcore\": %d, \"nchannel\": %u, \"nrank\": %u, "
		"\"page_size\": %" PRIu64 ", \"has_hugepages\": %d, \"version\": ",
		RTE_CACHE_LINE_SIZE, (int)RTE_MEMPOOL_ALIGN, RTE_MAX_LCORE,
		rte_memory_get_nchannel(), rte_memory_get_nrank(), pg,
		rte_eal_has_hugepages());
	jstr(rte_version());
	fprintf(out, ", \"sizeof\": {\"rte_mempool\": %zu, \"rte_mempool_cache\": %zu, "
		"\"rte_mempool_objhdr\": %zu, \"rte_mempool_memhdr\": %zu, "
		"\"rte_ring\": %zu, \"rte_mbuf\": %zu, "
		"\"rte_pktmbuf_pool_private\": %zu, \"rte_memzone\": %zu, "
		"\"rte_stack\": %zu, \"rte_lpm\": %zu}",
		sizeof(struct rte_mempool), sizeof(struct rte_mempool_cache),
		sizeof(struct rte_mempool_objhdr), sizeof(struct rte_mempool_memhdr),
		sizeof(struct rte_ring), sizeof(struct rte_mbuf),
		sizeof(struct rte_pktmbuf_pool_private), sizeof(struct rte_memzone),
		sizeof(struct rte_stack), sizeof(struct rte_lpm));
	fprintf(out, ", \"mempool_cache_max_size\": %d, \"socket_count\": %u, "
		"\"sys_page_size\": %ld, \"iova_mode\": %d}}\n",
		RTE_MEMPOOL_CACHE_MAX_SIZE, rte_socket_count(),
		sysconf(_SC_PAGESIZE), (int)rte_eal_iova_mode());
	fflush(out);
}

int
main(int argc, char **argv)
{
	char *line = NULL;
	size_t cap = 0;
	int fd;

	/* JSON channel = original stdout; fd 1 becomes stderr for the rest */
	fd = dup(STDOUT_FILENO);
	if (fd < 0 || (out = fdopen(fd, "w")) == NULL) {
		perror("dup stdout");
		return 2;
	}
	fflush(stdout);
	dup2(STDERR_FILENO, STDOUT_FILENO);
	rte_openlog_stream(stderr);

	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "probe: rte_eal_init failed: %s (%d)\n",
			rte_strerror(rte_errno), rte_errno);
		return 1;
	}
	rte_openlog_stream(stderr);
	print_platform();

	while (getline(&line, &cap, stdin) >= 0) {
		char *t[MAX_TOK], *save = NULL, *p;
		int nt = 0;
		bool keep = false;

		for (p = strtok_r(line, " \t\r\n", &save); p && nt < MAX_TOK;
		     p = strtok_r(NULL, " \t\r\n", &save))
			t[nt++] = p;
		if (nt == 0) {
			fputs("{\"cmd\": null, \"ok\": false, \"error\": \"empty line\"", out);
			jend();
			continue;
		}
		if (nt > 2 && strcmp(t[nt - 1], "keep") == 0 &&
		    (strcmp(t[0], "pool") == 0 || strcmp(t[0], "mbuf") == 0 ||
		     strcmp(t[0], "rib") == 0 || strcmp(t[0], "rib6") == 0 ||
		     strcmp(t[0], "fib") == 0 || strcmp(t[0], "fib6") == 0 ||
		     strcmp(t[0], "ring") == 0 || strcmp(t[0], "poolops") == 0 ||
		     strcmp(t[0], "mbufops") == 0 || strcmp(t[0], "lpm") == 0 ||
		     strcmp(t[0], "lpm6") == 0 || strcmp(t[0], "hash") == 0)) {
			keep = true;
			nt--;
		}
		perr[0] = '\0';
		if (strcmp(t[0], "quit") == 0)
			break;
		else if (strcmp(t[0], "pool") == 0)
			cmd_pool(t, nt, keep);
		else if (strcmp(t[0], "mbuf") == 0)
			cmd_mbuf(t, nt, keep);
		else if (strcmp(t[0], "calc") == 0)
			cmd_calc(t, nt);
		else if (strcmp(t[0], "memsize") == 0)
			cmd_memsize(t, nt);
		else if (strcmp(t[0], "rib") == 0)
			cmd_rib(t, nt, false, keep);
		else if (strcmp(t[0], "rib6") == 0)
			cmd_rib(t, nt, true, keep);
		else if (strcmp(t[0], "fib") == 0)
			cmd_fib(t, nt, false, keep);
		else if (strcmp(t[0], "fib6") == 0)
			cmd_fib(t, nt, true, keep);
		else if (strcmp(t[0], "fibadd") == 0)
			cmd_fibadd(t, nt);
		else if (strcmp(t[0], "ring") == 0)
			cmd_ring(t, nt, keep);
		else if (strcmp(t[0], "ringmemsize") == 0)
			cmd_ringmemsize(t, nt);
		else if (strcmp(t[0], "poolops") == 0)
			cmd_poolops(t, nt, keep);
		else if (strcmp(t[0], "mbufops") == 0)
			cmd_mbufops(t, nt, keep);
		else if (strcmp(t[0], "lpm") == 0)
			cmd_lpm(t, nt, keep);
		else if (strcmp(t[0], "lpm6") == 0)
			cmd_lpm6(t, nt, keep);
		else if (strcmp(t[0], "hash") == 0)
			cmd_hash(t, nt, keep);
		else if (strcmp(t[0], "lpmadd") == 0)
			cmd_lpmadd(t, nt);
		else if (strcmp(t[0], "free") == 0)
			cmd_free(t, nt);
		else if (strcmp(t[0], "mzlist") == 0)
			cmd_mzlist();
		else if (strcmp(t[0], "mzfree") == 0)
			cmd_mzfree(t, nt);
		else if (strcmp(t[0], "heap") == 0)
			cmd_heap();
		else if (strcmp(t[0], "malloc") == 0)
			cmd_malloc(t, nt);
		else if (strcmp(t[0], "dump") == 0)
			cmd_dump(t, nt);
		else if (strcmp(t[0], "mzdump") == 0)
			cmd_mzdump(t, nt);
		else {
			fputs("{\"cmd\": ", out);
			jstr(t[0]);
			fputs(", \"ok\": false, \"error\": \"unknown command\"", out);
			jend();
		}
	}
	free(line);
	rte_eal_cleanup();
	return 0;
}
