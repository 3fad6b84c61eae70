/* allocspy: an LD_PRELOAD shim that logs every rte_malloc-family allocation and rte_free of a DPDK
 * application (type string, size, align, socket, pointer) and every memzone reserve/free, to the file
 * named by $ALLOCSPY_LOG.  Only the outermost call of a nested family is logged (rte_zmalloc calls
 * rte_zmalloc_socket, ...).  Used by tests/conformance/test_apps_real.py to list what the real
 * dpdk-testpmd and dpdk-l3fwd allocate, so that mpcalc's application model can be checked allocation by
 * allocation.  Build: gcc -shared -fPIC -O1 allocspy.c -o allocspy.so -ldl $(pkg-config --cflags libdpdk)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>

static __thread int depth;
static FILE *logf_;

static FILE *out(void)
{
	if (!logf_) {
		const char *p = getenv("ALLOCSPY_LOG");
		logf_ = p ? fopen(p, "w") : stderr;
		if (!logf_)
			logf_ = stderr;
		setvbuf(logf_, NULL, _IOLBF, 0);
	}
	return logf_;
}

/* The real function: the next definition after this shim, or, when DPDK was loaded by dlopen() without
 * RTLD_GLOBAL (VPP's dpdk_plugin.so pulls librte_eal in that way), the one of the EAL library already loaded. */
static void *spy_next(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (!f) {
		const char *libs[] = { "librte_eal.so.23", "librte_eal.so.24", "librte_eal.so.25", "librte_eal.so.26",
				       "librte_eal.so" };
		for (unsigned i = 0; !f && i < sizeof(libs) / sizeof(libs[0]); i++) {
			void *h = dlopen(libs[i], RTLD_NOW | RTLD_NOLOAD);
			if (h)
				f = dlsym(h, name);
		}
	}
	return f;
}

#define NEXT(fn) static __typeof__(fn) *next_; if (!next_) next_ = (__typeof__(fn) *)spy_next(#fn)

#define ALLOC_WRAP(fn, proto, call, sz, al, sock, ty) \
	void *fn proto; void *fn proto { \
		static void *(*next_) proto; if (!next_) next_ = spy_next(#fn); \
		depth++; void *r = next_ call; depth--; \
		if (depth == 0) fprintf(out(), "alloc %s %s %zu %u %d %p\n", #fn, (ty) ? (ty) : "(null)", \
					(size_t)(sz), (unsigned)(al), (int)(sock), r); \
		return r; }

ALLOC_WRAP(rte_malloc, (const char *type, size_t size, unsigned align), (type, size, align), size, align, -1, type)
ALLOC_WRAP(rte_zmalloc, (const char *type, size_t size, unsigned align), (type, size, align), size, align, -1, type)
ALLOC_WRAP(rte_calloc, (const char *type, size_t num, size_t size, unsigned align), (type, num, size, align),
	   num * size, align, -1, type)
ALLOC_WRAP(rte_malloc_socket, (const char *type, size_t size, unsigned align, int socket),
	   (type, size, align, socket), size, align, socket, type)
ALLOC_WRAP(rte_zmalloc_socket, (const char *type, size_t size, unsigned align, int socket),
	   (type, size, align, socket), size, align, socket, type)
ALLOC_WRAP(rte_calloc_socket, (const char *type, size_t num, size_t size, unsigned align, int socket),
	   (type, num, size, align, socket), num * size, align, socket, type)
ALLOC_WRAP(rte_realloc, (void *ptr, size_t size, unsigned align), (ptr, size, align), size, align, -1, "realloc")
ALLOC_WRAP(rte_realloc_socket, (void *ptr, size_t size, unsigned align, int socket), (ptr, size, align, socket),
	   size, align, socket, "realloc")

void rte_free(void *ptr);
void rte_free(void *ptr)
{
	static void (*next_)(void *);
	if (!next_)
		next_ = spy_next("rte_free");
	depth++;
	next_(ptr);
	depth--;
	if (depth == 0 && ptr)
		fprintf(out(), "free %p\n", ptr);
}

struct rte_memzone;
typedef const struct rte_memzone *(*mz_fn)(const char *, size_t, int, unsigned, unsigned, unsigned);

#define MZ_WRAP(fn, proto, call, name, len) \
	const struct rte_memzone *fn proto; const struct rte_memzone *fn proto { \
		static const struct rte_memzone *(*next_) proto; if (!next_) next_ = spy_next(#fn); \
		depth++; const struct rte_memzone *r = next_ call; depth--; \
		if (depth == 0) fprintf(out(), "memzone %s %s %zu %p\n", #fn, name, (size_t)(len), (void *)r); \
		return r; }

MZ_WRAP(rte_memzone_reserve, (const char *name, size_t len, int socket_id, unsigned flags),
	(name, len, socket_id, flags), name, len)
MZ_WRAP(rte_memzone_reserve_aligned, (const char *name, size_t len, int socket_id, unsigned flags, unsigned align),
	(name, len, socket_id, flags, align), name, len)
MZ_WRAP(rte_memzone_reserve_bounded, (const char *name, size_t len, int socket_id, unsigned flags, unsigned align,
	unsigned bound), (name, len, socket_id, flags, align, bound), name, len)

int rte_memzone_free(const struct rte_memzone *mz);
int rte_memzone_free(const struct rte_memzone *mz)
{
	static int (*next_)(const struct rte_memzone *);
	if (!next_)
		next_ = spy_next("rte_memzone_free");
	fprintf(out(), "mzfree %p\n", (void *)mz);
	return next_(mz);
}
