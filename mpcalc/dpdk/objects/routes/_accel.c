/*
 * mpcalc.dpdk.objects.routes._accel: the plain route file read and the two replays of mpcalc.dpdk.objects.routes, in C.
 *
 * Optional: setup.py builds it where a compiler is (Extension(optional=True)); without it the package is
 * pure Python and gives the same answers (mpcalc/dpdk/objects/routes/accel.py chooses; MPCALC_PURE=1 forces the
 * Python path).  Each function is a line-for-line port of its Python twin, which documents it and cites
 * DPDK v22.11.11 (lib/fib/dir24_8.c, lib/fib/trie.c, lib/rib/rte_rib.c):
 *
 *   parse(data, family)            table.py _bulk: canonical "PREFIX/DEPTH[ NH]" lines, else None
 *   replay4(nets, depths, ids)     fast4.py Replay4.run
 *   replay6(nets, depths, ids)     fast6.py Replay6.run with trie6.py TrieDP (its general install only)
 *
 * Both replays return (codes, ev_route, ev_peak, ev_rsvd, ev_after, in_use, rsvd, distinct, clobbered):
 * the trace of mpcalc/dpdk/objects/routes/trace.py (events as native uint64 arrays), clobbered -1 or the route at
 * which DPDK's wrap-around bug strikes (the caller then replays with the reference).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <arpa/inet.h>
#include <sys/socket.h>
#endif

/* ---------------------------------------------------------------------------------------------------- */
/* growable arrays and an open-addressing map with 128-bit keys                                          */

typedef struct { uint64_t *v; size_t n, cap; } vec64;

static int vpush(vec64 *a, uint64_t x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 1024;
        uint64_t *v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return -1;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

typedef struct { uint64_t hi, lo; } u128;

typedef struct {
    u128 *keys;
    uint64_t *vals;
    uint8_t *used;
    size_t cap, len;
} map;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static int map_init(map *m, size_t cap)
{
    m->cap = cap; m->len = 0;
    m->keys = calloc(cap, sizeof *m->keys);
    m->vals = calloc(cap, sizeof *m->vals);
    m->used = calloc(cap, 1);
    return m->keys && m->vals && m->used ? 0 : -1;
}

static void map_free(map *m)
{
    free(m->keys); free(m->vals); free(m->used);
}

static size_t slot_of(const map *m, u128 k)
{
    size_t i = (size_t)(mix(k.hi * 0x9e3779b97f4a7c15ULL ^ mix(k.lo))) & (m->cap - 1);
    while (m->used[i] && (m->keys[i].hi != k.hi || m->keys[i].lo != k.lo))
        i = (i + 1) & (m->cap - 1);
    return i;
}

static uint64_t *map_get(map *m, u128 k)
{
    size_t i = slot_of(m, k);
    return m->used[i] ? &m->vals[i] : NULL;
}

static int map_grow(map *m)
{
    map n;
    if (map_init(&n, m->cap * 2))
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->used[i]) {
            size_t j = slot_of(&n, m->keys[i]);
            n.used[j] = 1; n.keys[j] = m->keys[i]; n.vals[j] = m->vals[i];
        }
    n.len = m->len;
    map_free(m);
    *m = n;
    return 0;
}

/* the value of key k, inserted as 0 if absent; NULL when out of memory */
static uint64_t *map_put(map *m, u128 k)
{
    if (2 * (m->len + 1) > m->cap && map_grow(m))
        return NULL;
    size_t i = slot_of(m, k);
    if (!m->used[i]) {
        m->used[i] = 1; m->keys[i] = k; m->vals[i] = 0; m->len++;
    }
    return &m->vals[i];
}

/* is h in (i, j], going round the table? */
static int between(size_t i, size_t h, size_t j)
{
    return i <= j ? (i < h && h <= j) : (i < h || h <= j);
}

/* removal with backward shift (linear probing keeps no tombstones) */
static void map_del(map *m, u128 k)
{
    size_t i = slot_of(m, k);
    if (!m->used[i])
        return;
    m->used[i] = 0; m->len--;
    for (size_t j = (i + 1) & (m->cap - 1); m->used[j]; j = (j + 1) & (m->cap - 1)) {
        size_t h = (size_t)(mix(m->keys[j].hi * 0x9e3779b97f4a7c15ULL ^ mix(m->keys[j].lo))) & (m->cap - 1);
        if (!between(i, h, j)) {
            m->keys[i] = m->keys[j]; m->vals[i] = m->vals[j]; m->used[i] = 1; m->used[j] = 0;
            i = j;
        }
    }
}

static u128 K(uint64_t hi, uint64_t lo) { u128 k = {hi, lo}; return k; }

/* ---------------------------------------------------------------------------------------------------- */
/* the trace                                                                                            */

typedef struct {
    uint8_t *codes;
    vec64 route, peak, rsvd, after;
    int oom;
} trace;

static void event(trace *t, int64_t i, int64_t peak, int64_t rsvd, int64_t after)
{
    if (vpush(&t->route, (uint64_t)i) || vpush(&t->peak, (uint64_t)peak) || vpush(&t->rsvd, (uint64_t)rsvd)
        || vpush(&t->after, (uint64_t)after))
        t->oom = 1;
}

static void trace_free(trace *t)
{
    free(t->codes); free(t->route.v); free(t->peak.v); free(t->rsvd.v); free(t->after.v);
}

static PyObject *trace_result(trace *t, Py_ssize_t n, int64_t in_use, int64_t rsvd, int64_t distinct,
                              int64_t clobbered)
{
    static char none[8];
    if (t->oom)
        return PyErr_NoMemory();
    return Py_BuildValue("(y#y#y#y#y#LLLL)", t->codes ? (char *)t->codes : none, n,
                         t->route.v ? (char *)t->route.v : none, (Py_ssize_t)(t->route.n * 8),
                         t->peak.v ? (char *)t->peak.v : none, (Py_ssize_t)(t->peak.n * 8),
                         t->rsvd.v ? (char *)t->rsvd.v : none, (Py_ssize_t)(t->rsvd.n * 8),
                         t->after.v ? (char *)t->after.v : none, (Py_ssize_t)(t->after.n * 8),
                         (long long)in_use, (long long)rsvd, (long long)distinct, (long long)clobbered);
}

enum { NEW = 0, SAME = 1, DUP = 2, REPLACE = 3 };

/* ---------------------------------------------------------------------------------------------------- */
/* replay4: fast4.py Replay4                                                                            */

#define DEEP 33

static uint32_t mask32(int d) { return d == 0 ? 0 : (uint32_t)(0xFFFFFFFFull << (32 - d)); }

typedef struct {
    uint32_t vals[256];  /* the entries (next hop ids + 1) */
    uint8_t deps[256];   /* the deepest deep route over each entry */
    uint8_t ext, cover;
} block;

typedef struct {
    uint32_t *rt[25];
    uint8_t *halves[25];
    uint8_t *m24;
    map deep;       /* net << 6 | d  ->  id + 1 | halves << 32 */
    map blockmap;   /* /24 -> index in blocks */
    block *blocks;
    size_t nblocks, capblocks;
    uint64_t present;
    int64_t in_use, peak, rsvd;
    trace t;
    int oom;
} R4;

static uint32_t route4(R4 *r, uint32_t net, int d)
{
    if (d > 24) {
        uint64_t *v = map_get(&r->deep, K(0, (uint64_t)net << 6 | (uint64_t)d));
        return v ? (uint32_t)*v : 0;
    }
    return (r->present >> d & 1) ? r->rt[d][d ? net >> (32 - d) : 0] : 0;
}

static block *block_of(R4 *r, uint32_t k)
{
    uint64_t *v = map_get(&r->blockmap, K(0, k));
    return v ? &r->blocks[*v] : NULL;
}

static int inside4(R4 *r, uint32_t a, int d)
{
    a &= mask32(d);
    if (d > 24) {
        block *b = block_of(r, a >> 8);
        if (!b)
            return 0;
        uint32_t o = a & 255, n = 1u << (32 - d);
        for (uint32_t e = o; e < o + n; e++)
            if (b->deps[e] >= d)
                return 1;
        return 0;
    }
    uint32_t s = a >> 8, n = 1u << (24 - d);
    for (uint32_t e = s; e < s + n; e++)
        if (r->m24[e] > d)
            return 1;
    return 0;
}

static int probe4(R4 *r, uint32_t net, int lo, int hi)
{
    for (int d = hi - 1; d >= lo; d--)
        if ((r->present >> d & 1) && route4(r, net & mask32(d), d))
            return d;
    return -1;
}

static void set_halves4(R4 *r, uint32_t net, int d, int bits)
{
    if (d > 24) {
        uint64_t *v = map_put(&r->deep, K(0, (uint64_t)net << 6 | (uint64_t)d));
        if (!v) { r->oom = 1; return; }
        *v = (*v & 0xFFFFFFFFull) | (uint64_t)bits << 32;
    } else {
        uint32_t h = net >> (31 - d);
        r->halves[d][h] = bits & 1;
        r->halves[d][h + 1] = bits >> 1;
    }
}

static int nodes4(R4 *r, int64_t i, uint32_t net, int d, int pd, int desc)
{
    if (desc) {
        uint32_t half = 1u << (31 - d);
        int low = inside4(r, net, d + 1), high = inside4(r, net + half, d + 1);
        set_halves4(r, net, d, low | high << 1);
        return low && high ? 0 : 1;
    }
    if (pd < 0)
        return i ? 2 : 1;
    if (pd > 24) {
        uint64_t side = 1u << (net >> (31 - pd) & 1);
        uint64_t *v = map_get(&r->deep, K(0, (uint64_t)(net & mask32(pd)) << 6 | (uint64_t)pd));
        uint64_t old = *v;
        *v = old | side << 32;
        return (old >> 32 & side) ? 2 : 1;
    }
    uint32_t h = net >> (31 - pd);
    int old = r->halves[pd][h];
    r->halves[pd][h] = 1;
    return old ? 2 : 1;
}

static void touch4(R4 *r, block *b, int lo, int hi, uint32_t value)
{
    if (!b->ext) {
        r->in_use++;
        int64_t peak = r->in_use + (hi == 256);
        if (peak > r->peak)
            r->peak = peak;
        b->ext = 1;
    }
    for (int e = lo; e < hi; e++)
        b->vals[e] = value;
    for (int e = 1; e < 256; e++)
        if (b->vals[e] != b->vals[0])
            return;
    b->ext = 0;
    r->in_use--;
}

/* the runs of entries in [lo, hi) of a block whose deps say "gap" (mode 0: deps == 0, 1: deps < d,
 * 2: deps == d), each touched in address order */
static void gaps4(R4 *r, block *b, int lo, int hi, int mode, int d, const uint8_t *deps, uint32_t value)
{
    int e = lo;
    while (e < hi) {
        int g = mode == 0 ? deps[e] == 0 : mode == 1 ? deps[e] < d : deps[e] == d;
        if (!g) { e++; continue; }
        int s = e;
        while (e < hi && (mode == 0 ? deps[e] == 0 : mode == 1 ? deps[e] < d : deps[e] == d))
            e++;
        touch4(r, b, s, e, value);
    }
}

static int clobbers4(R4 *r, uint32_t net, int d)
{
    if (net != mask32(d))
        return 0;
    for (int c = d + 1; c <= 32; c++) {
        uint32_t start = mask32(c);
        if (route4(r, start, c)) {
            uint32_t y = start - 1;
            for (int e = d + 1; e <= 32; e++)
                if (route4(r, y & mask32(e), e))
                    return 1;
            return 0;
        }
    }
    return 0;
}

static void shallow_blocks4(R4 *r, int64_t i, uint32_t net, int d, uint32_t value, int write, int replace)
{
    uint32_t b0 = net >> 8, b1 = b0 + (1u << (24 - d));
    int enc = d + 1, touched = 0, found = 0;
    for (uint32_t k = b0; k < b1; k++) {
        if (r->m24[k] != DEEP)
            continue;
        if (!found) { r->peak = r->in_use; found = 1; }
        block *b = block_of(r, k);
        if (replace ? b->cover == enc : b->cover < enc) {
            b->cover = (uint8_t)enc;
            if (write) {
                touched = 1;
                uint8_t deps[256];
                memcpy(deps, b->deps, 256);
                gaps4(r, b, 0, 256, 0, 0, deps, value);
            }
        }
    }
    if (touched)
        event(&r->t, i, r->peak, 0, r->in_use);
}

static void replace4(R4 *r, int64_t i, uint32_t net, int d, uint32_t value, int64_t *clob)
{
    if (clobbers4(r, net, d)) { *clob = i; return; }
    if (d <= 24) {
        shallow_blocks4(r, i, net, d, value, 1, 1);
        return;
    }
    block *b = block_of(r, net >> 8);
    int o = net & 255;
    r->peak = r->in_use;
    uint8_t deps[256];
    memcpy(deps, b->deps, 256);
    gaps4(r, b, o, o + (1 << (32 - d)), 2, d, deps, value);
    event(&r->t, i, r->peak, 0, r->in_use);
}

static int add_shallow4(R4 *r, int64_t i, uint32_t net, int d, uint32_t v, int64_t *clob)
{
    uint32_t b0 = net >> 8, b1 = b0 + (1u << (24 - d));
    int m = r->m24[b0];
    int cover = m == DEEP ? block_of(r, b0)->cover : m;
    int pd = cover <= d ? cover - 1 : probe4(r, net, 0, d);
    int desc = 0, deep = 0;
    for (uint32_t k = b0; k < b1; k++) {
        if (r->m24[k] >= d + 1)
            desc = 1;
        if (r->m24[k] == DEEP)
            deep = 1;
    }
    int nodes = nodes4(r, i, net, d, pd, desc);
    r->rt[d][d ? net >> (32 - d) : 0] = v;
    int same = pd >= 0 && route4(r, net & mask32(pd), pd) == v;
    if (deep)
        shallow_blocks4(r, i, net, d, v, !same, 0);
    for (uint32_t k = b0; k < b1; k++)
        if (r->m24[k] < d + 1)
            r->m24[k] = (uint8_t)(d + 1);
    if (!same && clobbers4(r, net, d))
        *clob = i;
    return (same ? SAME : NEW) | nodes << 2;
}

static int add_deep4(R4 *r, int64_t i, uint32_t net, int d, uint32_t value, int64_t *clob)
{
    u128 key = K(0, (uint64_t)net << 6 | (uint64_t)d);
    uint64_t *have = map_get(&r->deep, key);
    uint32_t old = have ? (uint32_t)*have : 0;
    if (old) {
        if (old == value)
            return DUP;
        replace4(r, i, net, d, value, clob);
        have = map_get(&r->deep, key);
        *have = (*have & ~0xFFFFFFFFull) | value;
        return REPLACE;
    }
    uint32_t k = net >> 8;
    int o = net & 255, size = 1 << (32 - d), pd, nodes;
    int64_t rsvd_need;
    block *b = block_of(r, k);
    if (!b) {
        rsvd_need = r->rsvd + 1;
        int cover = r->m24[k];
        pd = cover - 1;
        nodes = nodes4(r, i, net, d, pd, 0);
        if (r->nblocks == r->capblocks) {
            size_t cap = r->capblocks ? 2 * r->capblocks : 256;
            block *nb = realloc(r->blocks, cap * sizeof *nb);
            if (!nb) { r->oom = 1; return 0; }
            r->blocks = nb; r->capblocks = cap;
        }
        b = &r->blocks[r->nblocks];
        uint32_t fill = cover ? route4(r, net & mask32(pd), pd) : 1;
        for (int e = 0; e < 256; e++)
            b->vals[e] = fill;
        memset(b->deps, 0, 256);
        b->ext = 0;
        b->cover = (uint8_t)cover;
        uint64_t *slot = map_put(&r->blockmap, K(0, k));
        if (!slot) { r->oom = 1; return 0; }
        *slot = r->nblocks++;
        r->m24[k] = DEEP;
    } else {
        rsvd_need = 0;
        int d0 = b->deps[o];
        if (d0 == 0)
            pd = b->cover - 1;
        else if (d0 < d)
            pd = d0;
        else {
            pd = probe4(r, net, 25, d);
            if (pd < 0)
                pd = b->cover - 1;
        }
        int desc = 0;
        if (d < 32)
            for (int e = o; e < o + size; e++)
                if (b->deps[e] >= d + 1) { desc = 1; break; }
        nodes = nodes4(r, i, net, d, pd, desc);
    }
    uint64_t *slot = map_put(&r->deep, key);
    if (!slot) { r->oom = 1; return 0; }
    *slot |= value;
    int same = pd >= 0 && route4(r, net & mask32(pd), pd) == value;
    uint8_t deps[256];
    memcpy(deps, b->deps, 256);
    for (int e = o; e < o + size; e++)
        if (b->deps[e] < d)
            b->deps[e] = (uint8_t)d;
    r->peak = r->in_use;
    if (!same) {
        if (clobbers4(r, net, d)) { *clob = i; return 0; }
        gaps4(r, b, o, o + size, 1, d, deps, value);
        if (rsvd_need)
            r->rsvd++;
    }
    event(&r->t, i, r->peak, rsvd_need, r->in_use);
    return (same ? SAME : NEW) | nodes << 2;
}

static PyObject *replay4(PyObject *self, PyObject *args)
{
    Py_buffer nb, db, ib;
    if (!PyArg_ParseTuple(args, "y*y*y*", &nb, &db, &ib))
        return NULL;
    PyObject *res = NULL;
    Py_ssize_t n = db.len;
    const uint32_t *nets = nb.buf, *ids = ib.buf;
    const uint8_t *depths = db.buf;
    R4 r;
    memset(&r, 0, sizeof r);
    int64_t clob = -1, distinct = 0;
    if (nb.len != 4 * n || ib.len != 4 * n) {
        PyErr_SetString(PyExc_ValueError, "replay4: nets and ids need 4 bytes a route");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        if (depths[i] <= 32)
            r.present |= 1ull << depths[i];
    r.m24 = calloc(1u << 24, 1);
    r.t.codes = malloc(n ? (size_t)n : 1);
    r.oom = !r.m24 || !r.t.codes || map_init(&r.deep, 1024) || map_init(&r.blockmap, 1024);
    for (int d = 0; d <= 24 && !r.oom; d++)
        if (r.present >> d & 1) {
            r.rt[d] = calloc((size_t)1 << d, 4);
            r.halves[d] = calloc((size_t)2 << d, 1);
            r.oom = !r.rt[d] || !r.halves[d];
        }
    for (Py_ssize_t i = 0; i < n && !r.oom && clob < 0; i++) {
        int d = depths[i];
        uint32_t net = nets[i] & mask32(d), v = ids[i];
        int code;
        if (d > 24) {
            code = add_deep4(&r, i, net, d, v, &clob);
        } else {
            uint32_t *tab = r.rt[d], slot = d ? net >> (32 - d) : 0;
            uint32_t old = tab[slot];
            if (old) {
                if (old == v)
                    code = DUP;
                else {
                    replace4(&r, i, net, d, v, &clob);
                    tab[slot] = v;
                    code = REPLACE;
                }
            } else {
                code = add_shallow4(&r, i, net, d, v, &clob);
            }
        }
        r.t.codes[i] = (uint8_t)code;
        if ((code & 3) < DUP)
            distinct++;
    }
    if (r.t.oom)
        r.oom = 1;
    Py_END_ALLOW_THREADS
    if (r.oom)
        PyErr_NoMemory();
    else
        res = trace_result(&r.t, n, r.in_use, r.rsvd, distinct, clob);
done:
    for (int d = 0; d <= 24; d++) { free(r.rt[d]); free(r.halves[d]); }
    free(r.m24); free(r.blocks); map_free(&r.deep); map_free(&r.blockmap);
    trace_free(&r.t);
    PyBuffer_Release(&nb); PyBuffer_Release(&db); PyBuffer_Release(&ib);
    return res;
}

/* ---------------------------------------------------------------------------------------------------- */
/* replay6: fast6.py Replay6 and trie6.py TrieDP (install_to_dp for every modify)                      */

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128i;
#define PTR 0xFFFFFFFFu

static u128i shl(u128i x, int s) { return s >= 128 ? 0 : x << s; }
static u128i shr(u128i x, int s) { return s >= 128 ? 0 : x >> s; }
static int byte_at(u128i x, int i) { return (int)(x >> (120 - 8 * i)) & 255; }
static int bitlen(u128i x)
{
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    if (hi)
        return 128 - __builtin_clzll(hi);
    return lo ? 64 - __builtin_clzll(lo) : 0;
}
static u128 key128(u128i x) { return K((uint64_t)(x >> 64), (uint64_t)x); }

typedef struct {
    uint32_t *tbl24;            /* value ^ 1: zeroed is the default next hop (1) */
    map groups;                 /* node << 4 | level  ->  index in pool */
    uint8_t *pool;              /* groups of 256 entries of esz bytes (2 when every next hop id fits) */
    size_t npool, cappool, esz;
    vec64 freelist;
    int64_t in_use, peak;
    int oom;
} DP6;

/* a group's entry; in 2-byte groups PTR is held as 0xFFFF */
static uint32_t gget(DP6 *p, size_t idx, int e)
{
    if (p->esz == 2) {
        uint32_t x = ((uint16_t *)(p->pool + idx * 512))[e];
        return x == 0xFFFF ? PTR : x;
    }
    return ((uint32_t *)(p->pool + idx * 1024))[e];
}

static void gput(DP6 *p, size_t idx, int e, uint32_t v)
{
    if (p->esz == 2)
        ((uint16_t *)(p->pool + idx * 512))[e] = (uint16_t)(v == PTR ? 0xFFFF : v);
    else
        ((uint32_t *)(p->pool + idx * 1024))[e] = v;
}

static size_t grp(DP6 *p, int level, u128i node)
{
    return (size_t)*map_get(&p->groups, key128(node << 4 | (u128i)level));
}

static uint32_t rd(DP6 *p, int level, u128i node, int e)
{
    if (level < 0)
        return p->tbl24[e] ^ 1;
    return gget(p, grp(p, level, node), e);
}

static void wr(DP6 *p, int level, u128i node, int e, uint32_t value, int n)
{
    if (level < 0) {
        for (int k = 0; k < n; k++)
            p->tbl24[e + k] = value ^ 1;
    } else if (n > 0) {
        size_t g = grp(p, level, node);
        for (int k = 0; k < n; k++)
            gput(p, g, e + k, value);
    }
}

static u128i child6(DP6 *p, int level, u128i node, int e, uint32_t value)
{
    u128i below = level < 0 ? (u128i)e : node << 8 | (u128i)e;
    if (value != PTR) {
        size_t idx;
        if (p->freelist.n)
            idx = p->freelist.v[--p->freelist.n];
        else {
            if (p->npool == p->cappool) {
                size_t cap = p->cappool ? 2 * p->cappool : 1024;
                uint8_t *np = realloc(p->pool, cap * 256 * p->esz);
                if (!np) { p->oom = 1; return below; }
                p->pool = np; p->cappool = cap;
            }
            idx = p->npool++;
        }
        for (int k = 0; k < 256; k++)
            gput(p, idx, k, value);
        uint64_t *slot = map_put(&p->groups, key128(below << 4 | (u128i)(level + 1)));
        if (!slot) { p->oom = 1; return below; }
        *slot = idx;
        p->in_use++;
        if (p->in_use > p->peak)
            p->peak = p->in_use;
    }
    return below;
}

static uint32_t recycle6(DP6 *p, int level, u128i node)
{
    u128 k = key128(node << 4 | (u128i)level);
    size_t idx = (size_t)*map_get(&p->groups, k);
    uint32_t v = gget(p, idx, 0);
    if (v == PTR)
        return PTR;
    for (int e = 1; e < 256; e++)
        if (gget(p, idx, e) != v)
            return PTR;
    map_del(&p->groups, k);
    if (vpush(&p->freelist, idx))
        p->oom = 1;
    p->in_use--;
    return v;
}

static void write_edge6(DP6 *p, u128i ip, int pos, uint32_t value, int ln, int ledge, int level, u128i node, int e)
{
    uint32_t val = value;
    if (ln) {
        val = rd(p, level, node, e);
        u128i sub = child6(p, level, node, e, val);
        if (p->oom)
            return;
        val = PTR;
        int b = byte_at(ip, pos);
        write_edge6(p, ip, pos + 1, value, ln - 1, ledge, level + 1, sub, b);
        if (ledge)
            wr(p, level + 1, sub, b + 1, value, 255 - b);
        else
            wr(p, level + 1, sub, 0, value, b);
        uint32_t uni = recycle6(p, level + 1, sub);
        if (uni != PTR)
            val = uni;
    }
    wr(p, level, node, e, val, 1);
}

static void recycle_root_path6(DP6 *p, u128i ip, int pos, int common_tbl8, int level, u128i node, int e)
{
    if (rd(p, level, node, e) != PTR)
        return;
    u128i sub = level < 0 ? (u128i)e : node << 8 | (u128i)e;
    if (common_tbl8)
        recycle_root_path6(p, ip, pos + 1, common_tbl8 - 1, level + 1, sub, byte_at(ip, pos));
    uint32_t uni = recycle6(p, level + 1, sub);
    if (uni != PTR)
        wr(p, level, node, e, uni, 1);
}

static void install6(DP6 *p, u128i ledge, u128i r, uint32_t value)
{
    u128i redge = r - 1;
    u128i x = ledge ^ redge;
    int common = (128 - bitlen(x)) >> 3;
    if (common > 15)
        common = 15;
    int level = -1;
    u128i node = 0;
    for (int i = 3; i <= common; i++) {
        int e = i == 3 ? (int)(ledge >> 104) : (int)(ledge >> (128 - 8 * i)) & 255;
        uint32_t val = rd(p, level, node, e);
        u128i sub = child6(p, level, node, e, val);
        if (p->oom)
            return;
        if (val != PTR)
            wr(p, level, node, e, PTR, 1);
        level++;
        node = sub;
    }
    int first = common > 3 ? common : 3;
    int i = 15;
    while (i > first && !byte_at(ledge, i))
        i--;
    int llen = i - first + (common < 3);
    i = 15;
    while (i > first && byte_at(redge, i) == 255)
        i--;
    int rlen = i - first + (common < 3);
    int left, right;
    if (common < 3) {
        left = (int)(ledge >> 104);
        right = (int)(redge >> 104);
    } else {
        left = byte_at(ledge, common);
        right = byte_at(redge, common);
    }
    int pos = first + (common >= 3);
    write_edge6(p, ledge, pos, value, llen, 1, level, node, left);
    if (right > left + 1)
        wr(p, level, node, left + 1, value, right - (left + 1));
    write_edge6(p, redge, pos, value, rlen, 0, level, node, right);
    recycle_root_path6(p, ledge, 3, common < 3 ? 0 : common - 2, -1, 0, (int)(ledge >> 104));
}

typedef struct {
    u128i net;
    uint8_t depth;
    int64_t idx;
} item;

static int item_cmp(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->net != y->net)
        return x->net < y->net ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

typedef struct {
    int64_t m;
    u128i *knet;
    uint8_t *kdep;
    int64_t *tau, *pidx, *fmin, *send;
    uint8_t *halves;
    uint32_t *cur;
    map below;
    int64_t rsvd;
    DP6 dp;
    trace t;
} R6;

static int holds6(R6 *r, int64_t lo, int64_t hi, int64_t t)
{
    for (int64_t e = lo; e < hi; e = r->send[e])
        if (r->tau[e] < t || r->fmin[e] < t)
            return 1;
    return 0;
}

static int64_t half_start6(R6 *r, int64_t k)
{
    int d = r->kdep[k];
    u128i net = r->knet[k] | shl(1, 127 - d);
    int64_t lo = k + 1, hi = r->send[k];
    while (lo < hi) {
        int64_t mid = (lo + hi) >> 1;
        if (r->knet[mid] < net || (r->knet[mid] == net && r->kdep[mid] < d + 1))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int nodes6(R6 *r, int64_t k, int64_t t, int64_t p)
{
    if (r->fmin[k] < t) {
        int64_t b = half_start6(r, k);
        int low = holds6(r, k + 1, b, t), high = holds6(r, b, r->send[k], t);
        r->halves[k] = (uint8_t)(low | high << 1);
        return low && high ? 0 : 1;
    }
    if (p < 0)
        return t ? 2 : 1;
    int side = 1 << (int)(shr(r->knet[k], 127 - r->kdep[p]) & 1);
    int old = r->halves[p];
    r->halves[p] = (uint8_t)(old | side);
    return (old & side) ? 2 : 1;
}

/* modify_dp: returns 1 if the wrap-around bug strikes */
static int modify6(R6 *r, int64_t i, int64_t k, uint32_t value)
{
    u128i net = r->knet[k], ledge = net;
    int d = r->kdep[k], seen = 0;
    if (r->fmin[k] < i) {
        int64_t e = k + 1, end = r->send[k];
        while (e < end) {
            if (r->tau[e] < i) {
                seen = 1;
                u128i redge = r->knet[e];
                u128i nxt = redge + shl(1, 128 - r->kdep[e]);
                int64_t next_e = r->send[e];
                if (ledge == redge) {
                    ledge = nxt;
                } else {
                    install6(&r->dp, ledge, redge, value);
                    ledge = nxt;
                    if (!ledge)
                        return 0;
                }
                e = next_e;
            } else if (r->fmin[e] < i) {
                e++;
            } else {
                e = r->send[e];
            }
        }
    }
    u128i redge = net + shl(1, 128 - d);
    if (ledge == redge && ledge)
        return 0;
    if (seen && !ledge)
        return 1;
    install6(&r->dp, ledge, redge, value);
    return 0;
}

static int add6(R6 *r, int64_t i, int64_t k, uint32_t value, int64_t *clob)
{
    DP6 *dp = &r->dp;
    uint32_t old = r->cur[k];
    if (old) {
        if (old == value)
            return DUP;
        dp->peak = dp->in_use;
        if (modify6(r, i, k, value)) { *clob = i; return 0; }
        r->cur[k] = value;
        event(&r->t, i, dp->peak, 0, dp->in_use);
        return REPLACE;
    }
    u128i net = r->knet[k];
    int d = r->kdep[k];
    int64_t p = r->pidx[k], rsvd_need = 0, depth_diff = 0;
    if (d > 24) {
        int f = d & ~7;
        if (!map_get(&r->below, key128(shr(net, 128 - f) << 8 | (u128i)f))) {
            int parent = p >= 0 && r->kdep[p] > 24 ? r->kdep[p] : 24;
            depth_diff = (((d + 7) & ~7) - ((parent + 7) & ~7)) >> 3;
        }
        rsvd_need = r->rsvd + depth_diff;
        for (int g = 24; g < d; g += 8)
            if (!map_put(&r->below, key128(shr(net, 128 - g) << 8 | (u128i)g))) { dp->oom = 1; return 0; }
    }
    int nodes = nodes6(r, k, i, p);
    r->cur[k] = value;
    dp->peak = dp->in_use;
    int same = p >= 0 && r->cur[p] == value;
    if (!same) {
        if (modify6(r, i, k, value)) { *clob = i; return 0; }
        r->rsvd += depth_diff;
    }
    event(&r->t, i, dp->peak, rsvd_need, dp->in_use);
    return (same ? SAME : NEW) | nodes << 2;
}

static PyObject *replay6(PyObject *self, PyObject *args)
{
    Py_buffer nb, db, ib;
    if (!PyArg_ParseTuple(args, "y*y*y*", &nb, &db, &ib))
        return NULL;
    PyObject *res = NULL;
    Py_ssize_t n = db.len;
    const uint8_t *nets = nb.buf, *depths = db.buf;
    const uint32_t *ids = ib.buf;
    R6 r;
    memset(&r, 0, sizeof r);
    item *items = NULL;
    int64_t *elem = NULL, *stack = NULL;
    int64_t clob = -1;
    int oom = 0;
    if (nb.len != 16 * n || ib.len != 4 * n) {
        PyErr_SetString(PyExc_ValueError, "replay6: nets need 16 bytes and ids 4 bytes a route");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    items = malloc((n ? n : 1) * sizeof *items);
    elem = malloc((n ? n : 1) * sizeof *elem);
    r.t.codes = malloc(n ? (size_t)n : 1);
    r.dp.tbl24 = calloc((size_t)1 << 24, 4);
    r.dp.esz = 2;
    for (Py_ssize_t i = 0; i < n; i++)
        if (ids[i] >= 0xFFFF) { r.dp.esz = 4; break; }
    oom = !items || !elem || !r.t.codes || !r.dp.tbl24 || map_init(&r.below, 1024) || map_init(&r.dp.groups, 1024);
    for (Py_ssize_t i = 0; i < n && !oom; i++) {
        u128i x = 0;
        for (int b = 0; b < 16; b++)
            x = x << 8 | nets[16 * i + b];
        items[i].net = x;
        items[i].depth = depths[i];
        items[i].idx = i;
    }
    if (!oom)
        qsort(items, (size_t)n, sizeof *items, item_cmp);
    int64_t m = 0;
    for (Py_ssize_t s = 0; s < n && !oom; s++) {
        if (!s || items[s].net != items[s - 1].net || items[s].depth != items[s - 1].depth)
            m++;
        elem[items[s].idx] = m - 1;
    }
    r.m = m;
    if (!oom) {
        size_t mm = m ? (size_t)m : 1;
        r.knet = malloc(mm * sizeof *r.knet);
        r.kdep = malloc(mm);
        r.tau = malloc(mm * 8); r.pidx = malloc(mm * 8); r.fmin = malloc(mm * 8); r.send = malloc(mm * 8);
        r.halves = calloc(mm, 1);
        r.cur = calloc(mm, 4);
        stack = malloc(mm * 8);
        oom = !r.knet || !r.kdep || !r.tau || !r.pidx || !r.fmin || !r.send || !r.halves || !r.cur || !stack;
    }
    if (!oom) {
        int64_t k = -1;
        for (Py_ssize_t s = 0; s < n; s++)
            if (!s || items[s].net != items[s - 1].net || items[s].depth != items[s - 1].depth) {
                k++;
                r.knet[k] = items[s].net; r.kdep[k] = items[s].depth; r.tau[k] = items[s].idx;
            }
        int64_t top = 0;
        for (k = 0; k < m; k++) {
            u128i net = r.knet[k];
            int64_t t = r.tau[k];
            r.pidx[k] = -1; r.fmin[k] = n; r.send[k] = m;
            while (top) {
                int64_t j = stack[top - 1];
                int sh = 128 - r.kdep[j];
                if (shr(net, sh) == shr(r.knet[j], sh))
                    break;
                top--;
                r.send[j] = k;
                if (top) {
                    int64_t x = r.fmin[j] < r.tau[j] ? r.fmin[j] : r.tau[j];
                    if (x < r.fmin[stack[top - 1]])
                        r.fmin[stack[top - 1]] = x;
                }
            }
            for (int64_t s = top - 1; s >= 0; s--)
                if (r.tau[stack[s]] < t) { r.pidx[k] = stack[s]; break; }
            stack[top++] = k;
        }
        while (top) {
            int64_t j = stack[--top];
            if (top) {
                int64_t x = r.fmin[j] < r.tau[j] ? r.fmin[j] : r.tau[j];
                if (x < r.fmin[stack[top - 1]])
                    r.fmin[stack[top - 1]] = x;
            }
        }
        for (Py_ssize_t i = 0; i < n && clob < 0 && !r.dp.oom && !r.t.oom; i++)
            r.t.codes[i] = (uint8_t)add6(&r, i, elem[i], ids[i], &clob);
    }
    oom = oom || r.dp.oom || r.t.oom;
    Py_END_ALLOW_THREADS
    if (oom)
        PyErr_NoMemory();
    else
        res = trace_result(&r.t, n, r.dp.in_use, r.rsvd, r.m, clob);
done:
    free(items); free(elem); free(stack);
    free(r.knet); free(r.kdep); free(r.tau); free(r.pidx); free(r.fmin); free(r.send); free(r.halves); free(r.cur);
    map_free(&r.below); map_free(&r.dp.groups); free(r.dp.tbl24); free(r.dp.pool); free(r.dp.freelist.v);
    trace_free(&r.t);
    PyBuffer_Release(&nb); PyBuffer_Release(&db); PyBuffer_Release(&ib);
    return res;
}
#endif

/* ---------------------------------------------------------------------------------------------------- */
/* parse: table.py _bulk's canonical lines, else None                                                   */

#ifndef _WIN32
static PyObject *parse(PyObject *self, PyObject *args)
{
    Py_buffer buf;
    int family;
    if (!PyArg_ParseTuple(args, "y*i", &buf, &family))
        return NULL;
    const char *s = buf.buf, *end = s + buf.len;
    int width = family == 4 ? 32 : 128, alen = family == 4 ? 4 : 16;
    Py_ssize_t lines = 0;
    for (const char *c = s; c < end; c++)
        lines += *c == '\n';
    if (buf.len && end[-1] != '\n')
        lines++;
    PyObject *res = NULL;
    uint8_t *nets = malloc(lines ? (size_t)lines * alen : 1), *depths = malloc(lines ? (size_t)lines : 1);
    uint64_t *nhs = malloc(lines ? (size_t)lines * 8 : 1);
    int shape = -1, ok = nets && depths && nhs && lines && (family == 4 || family == 6);
    Py_ssize_t n = 0;
    const char *c = s;
    while (ok && c < end) {
        const char *slash = c;
        while (slash < end && *slash != '/' && *slash != ' ' && *slash != '\n')
            slash++;
        if (slash == end || *slash != '/' || slash == c || slash - c > 45) { ok = 0; break; }
        char addr[48];
        memcpy(addr, c, (size_t)(slash - c));
        addr[slash - c] = 0;
        unsigned char raw[16];
        if (inet_pton(family == 4 ? AF_INET : AF_INET6, addr, raw) != 1) { ok = 0; break; }
        const char *p = slash + 1;
        int depth = 0, digits = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            depth = depth * 10 + (*p - '0');
            digits++;
            p++;
            if (digits > 3) break;
        }
        if (!digits || digits > 3 || (digits > 1 && slash[1] == '0') || depth > width) { ok = 0; break; }
        int has_nh = p < end && *p == ' ';
        if (shape < 0)
            shape = has_nh;
        if (shape != has_nh) { ok = 0; break; }
        uint64_t nh = 0;
        if (has_nh) {
            p++;
            int nd = 0;
            while (p < end && *p >= '0' && *p <= '9') {
                uint64_t dgt = (uint64_t)(*p - '0');
                if (nh > (UINT64_MAX - dgt) / 10) { ok = 0; break; }
                nh = nh * 10 + dgt;
                nd++;
                p++;
            }
            if (!ok || !nd) { ok = 0; break; }
        }
        if (p < end && *p != '\n') { ok = 0; break; }
        c = p < end ? p + 1 : p;
        /* the network, masked to its depth, in the table's layout: native uint32 / 16 bytes big-endian */
        for (int b = 0; b < alen; b++) {
            int keep = depth - 8 * b;
            raw[b] &= keep >= 8 ? 0xFF : keep <= 0 ? 0 : (uint8_t)(0xFF << (8 - keep));
        }
        if (family == 4) {
            uint32_t v = (uint32_t)raw[0] << 24 | (uint32_t)raw[1] << 16 | (uint32_t)raw[2] << 8 | raw[3];
            memcpy(nets + 4 * n, &v, 4);
        } else {
            memcpy(nets + 16 * n, raw, 16);
        }
        depths[n] = (uint8_t)depth;
        nhs[n] = nh;
        n++;
    }
    if (ok && n == lines) {
        if (shape)
            res = Py_BuildValue("(y#y#y#)", (char *)nets, n * alen, (char *)depths, n, (char *)nhs, n * 8);
        else
            res = Py_BuildValue("(y#y#O)", (char *)nets, n * alen, (char *)depths, n, Py_None);
    } else {
        Py_INCREF(Py_None);
        res = Py_None;
    }
    free(nets); free(depths); free(nhs);
    PyBuffer_Release(&buf);
    return res;
}
#endif

static PyMethodDef methods[] = {
#ifndef _WIN32
    {"parse", parse, METH_VARARGS, "Columns of canonical PREFIX/DEPTH[ NH] lines (table.py _bulk), else None."},
#endif
    {"replay4", replay4, METH_VARARGS, "fast4.Replay4.run: (codes, ev_route, ev_peak, ev_rsvd, ev_after, "
     "in_use, rsvd, distinct, clobbered)."},
#ifdef __SIZEOF_INT128__
    {"replay6", replay6, METH_VARARGS, "fast6.Replay6.run: as replay4."},
#endif
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_accel", "The route planner's hot loops in C.", -1,
                                    methods};

/* accel.py uses a build of this file only if its VERSION is accel.VERSION: bump both on every change */
#define VERSION 2

PyMODINIT_FUNC PyInit__accel(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "VERSION", VERSION)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
