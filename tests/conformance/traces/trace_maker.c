/* SPDX-License-Identifier: BSD-3-Clause
 *
 * trace_maker: makes, on socket 0, every memory event the applications of the suite do not (testpmd and
 * l3fwd never realloc, never bound a memzone, ...), so that a DPDK CTF trace holds each event kind:
 * rte_malloc / rte_zmalloc / rte_calloc / rte_realloc (grown in place, moved, shrunk, and align 0 which always moves) / rte_free, an
 * rte_malloc with a NULL type, memzones (plain, aligned, bounded) and rte_memzone_free, mempools by every
 * creation path, and an rte_ring, an rte_hash, an rte_lpm and an rte_fib (DIR24_8).  Then, before
 * rte_eal_cleanup() (which writes the trace), it prints its own view of its memory: rte_mempool_list_dump,
 * rte_memzone_dump, rte_malloc_dump_heaps and rte_malloc_get_socket_stats(0).  Each step prints a
 * "step:" line with the pointers it got, so the trace can be checked against them.
 *
 * Build (against the installed libdpdk, outside the repository) and run:
 *   gcc -O2 -Wall -DALLOW_EXPERIMENTAL_API $(pkg-config --cflags libdpdk) -o /tmp/trace_maker \
 *       trace_maker.c $(pkg-config --libs libdpdk)
 *   /tmp/trace_maker --no-huge -m 512 --no-pci --trace='lib\.eal\.mem.*' --trace='lib\.mempool\..*' \
 *       --trace-dir DIR
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_fib.h>
#include <rte_hash.h>
#include <rte_jhash.h>
#include <rte_lpm.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#define SOCKET 0

static void *
must(void *p, const char *what)
{
	if (p == NULL) {
		fprintf(stderr, "trace_maker: %s failed: %s\n", what, rte_strerror(rte_errno));
		rte_exit(EXIT_FAILURE, "%s failed\n", what);
	}
	return p;
}

static void
zone(const struct rte_memzone *mz, const char *how)
{
	printf("step: %s %s len=%zu addr=%p iova=0x%" PRIx64 " socket=%d\n", how, mz->name, mz->len,
	       mz->addr, (uint64_t)mz->iova, mz->socket_id);
}

int
main(int argc, char **argv)
{
	if (rte_eal_init(argc, argv) < 0)
		rte_exit(EXIT_FAILURE, "rte_eal_init failed\n");

	/* 1. rte_malloc: a plain allocation, then one with a 256-byte alignment on socket 0 */
	void *m1 = must(rte_malloc("maker_malloc", 1000, 0), "rte_malloc");
	void *m2 = must(rte_malloc_socket("maker_malloc_align", 3000, 256, SOCKET), "rte_malloc_socket");
	printf("step: rte_malloc maker_malloc 1000 -> %p; rte_malloc_socket maker_malloc_align 3000 align 256 -> %p\n",
	       m1, m2);

	/* 2. rte_zmalloc: emits lib.eal.mem.malloc then lib.eal.mem.zmalloc with the same ptr */
	void *z1 = must(rte_zmalloc_socket("maker_zmalloc", 5000, 64, SOCKET), "rte_zmalloc_socket");
	printf("step: rte_zmalloc_socket maker_zmalloc 5000 align 64 -> %p\n", z1);

	/* 3. rte_calloc: 10 x 100 bytes (rte_calloc_socket -> rte_zmalloc_socket) */
	void *c1 = must(rte_calloc_socket("maker_calloc", 10, 100, 0, SOCKET), "rte_calloc_socket");
	printf("step: rte_calloc_socket maker_calloc 10x100 -> %p\n", c1);

	/* 4. rte_realloc grown in place: the heap carves a new element from the end of the free block, so
	 * "below" is reserved after (under) "above"; freeing "above" leaves free space right after "below",
	 * which rte_realloc joins (malloc_heap_resize) without moving it.  The alignment must be non-zero:
	 * with align 0, rte_realloc_socket tests RTE_PTR_ALIGN(ptr, 0) == ptr, which is never true (the
	 * macro gives 0), so it always moves (v21.11 to v26.07, lib/eal/common/rte_malloc.c) -- step 4a
	 * shows that, step 4b grows in place with align 64 */
	void *above = must(rte_malloc("maker_realloc_above", 8192, 0), "rte_malloc above");
	void *below = must(rte_malloc("maker_realloc_align0", 1024, 0), "rte_malloc below");
	rte_free(above);
	void *grown = must(rte_realloc(below, 4096, 0), "rte_realloc align 0");
	printf("step: 4a rte_realloc grow align 0 %p (1024) -> %p (4096): %s\n", below, grown,
	       grown == below ? "in place" : "moved");
	void *above2 = must(rte_malloc("maker_realloc_above2", 8192, 0), "rte_malloc above2");
	void *below2 = must(rte_malloc("maker_realloc_inplace", 1024, 0), "rte_malloc below2");
	rte_free(above2);
	void *grown2 = must(rte_realloc(below2, 4096, 64), "rte_realloc in place");
	printf("step: 4b rte_realloc grow align 64 %p (1024) -> %p (4096): %s\n", below2, grown2,
	       grown2 == below2 ? "in place" : "moved");

	/* 5. rte_realloc that must move: "blocker" sits right after "mover", so it cannot grow in place */
	void *blocker = must(rte_malloc("maker_realloc_blocker", 512, 0), "rte_malloc blocker");
	void *mover = must(rte_malloc("maker_realloc_move", 512, 0), "rte_malloc mover");
	void *moved = must(rte_realloc(mover, 65536, 64), "rte_realloc move");
	printf("step: rte_realloc grow moving %p (512) -> %p (65536 align 64): %s; blocker %p\n", mover, moved,
	       moved == mover ? "in place" : "moved", blocker);

	/* 6. rte_realloc shrinking (in place) */
	void *shrunk = must(rte_realloc(moved, 10000, 64), "rte_realloc shrink");
	printf("step: rte_realloc shrink %p (65536) -> %p (10000)\n", moved, shrunk);

	/* 7. rte_free of one plain allocation */
	rte_free(m1);
	printf("step: rte_free %p\n", m1);

	/* 8. rte_malloc with a NULL type: its trace event loses its payload (emit_string(NULL) returns) */
	void *n1 = must(rte_malloc(NULL, 3000, 0), "rte_malloc NULL");
	void *n2 = must(rte_zmalloc(NULL, 7000, 128), "rte_zmalloc NULL");
	printf("step: rte_malloc NULL 3000 -> %p; rte_zmalloc NULL 7000 align 128 -> %p\n", n1, n2);
	rte_free(n1);
	printf("step: rte_free %p (NULL-type)\n", n1);

	/* 9. memzones: plain, aligned to 4096, bounded (3000 bytes in one 4096-byte window, align 64),
	 * aligned+bounded (1 MiB aligned to 64 KiB, not crossing 2 MiB), then one freed */
	const struct rte_memzone *mz_plain = must((void *)rte_memzone_reserve("maker_mz_plain", 100, SOCKET, 0),
						  "rte_memzone_reserve");
	zone(mz_plain, "rte_memzone_reserve len 100");
	const struct rte_memzone *mz_al = must(
		(void *)rte_memzone_reserve_aligned("maker_mz_aligned", 10000, SOCKET, 0, 4096),
		"rte_memzone_reserve_aligned");
	zone(mz_al, "rte_memzone_reserve_aligned len 10000 align 4096");
	const struct rte_memzone *mz_bd = must(
		(void *)rte_memzone_reserve_bounded("maker_mz_bounded", 3000, SOCKET, 0, 64, 4096),
		"rte_memzone_reserve_bounded");
	zone(mz_bd, "rte_memzone_reserve_bounded len 3000 align 64 bound 4096");
	const struct rte_memzone *mz_bd2 = must(
		(void *)rte_memzone_reserve_bounded("maker_mz_bounded_big", 1 << 20, SOCKET, 0, 65536, 2 << 20),
		"rte_memzone_reserve_bounded big");
	zone(mz_bd2, "rte_memzone_reserve_bounded len 1048576 align 65536 bound 2097152");
	const struct rte_memzone *mz_tmp = must((void *)rte_memzone_reserve("maker_mz_freed", 50000, SOCKET, 0),
						"rte_memzone_reserve freed");
	zone(mz_tmp, "rte_memzone_reserve len 50000 (freed next)");
	if (rte_memzone_free(mz_tmp) != 0)
		rte_exit(EXIT_FAILURE, "rte_memzone_free failed\n");
	printf("step: rte_memzone_free maker_mz_freed\n");

	/* 10. mempools by every creation path */
	/* 10a. rte_mempool_create (create.empty + set ops + populate_default inside; then lib.mempool.create) */
	struct rte_mempool *mp_c = must(
		rte_mempool_create("maker_mp_create", 1023, 128, 32, 0, NULL, NULL, NULL, NULL, SOCKET, 0),
		"rte_mempool_create");
	printf("step: rte_mempool_create maker_mp_create n=1023 elt=128 cache=32 -> %p\n", (void *)mp_c);
	/* 10b. rte_mempool_create_empty + rte_mempool_set_ops_byname + rte_mempool_populate_default */
	struct rte_mempool *mp_e = must(rte_mempool_create_empty("maker_mp_empty", 500, 200, 0, 16, SOCKET, 0),
					"rte_mempool_create_empty");
	if (rte_mempool_set_ops_byname(mp_e, "ring_mp_mc", NULL) != 0 || rte_mempool_populate_default(mp_e) < 0)
		rte_exit(EXIT_FAILURE, "populate_default failed\n");
	printf("step: rte_mempool_create_empty+populate_default maker_mp_empty n=500 elt=200 priv=16 -> %p\n",
	       (void *)mp_e);
	/* 10c. rte_mempool_create_empty + rte_mempool_populate_anon (anonymous mmap, no memzone for objects) */
	struct rte_mempool *mp_a = must(rte_mempool_create_empty("maker_mp_anon", 256, 64, 0, 0, SOCKET, 0),
					"rte_mempool_create_empty anon");
	if (rte_mempool_set_ops_byname(mp_a, "ring_mp_mc", NULL) != 0 || rte_mempool_populate_anon(mp_a) == 0)
		rte_exit(EXIT_FAILURE, "populate_anon failed\n");
	printf("step: rte_mempool_create_empty+populate_anon maker_mp_anon n=256 elt=64 -> %p\n", (void *)mp_a);
	/* 10d. rte_pktmbuf_pool_create */
	struct rte_mempool *mp_p = must(
		rte_pktmbuf_pool_create("maker_pktmbuf", 511, 32, 8, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET),
		"rte_pktmbuf_pool_create");
	printf("step: rte_pktmbuf_pool_create maker_pktmbuf n=511 cache=32 priv=8 data_room=%d -> %p\n",
	       RTE_MBUF_DEFAULT_BUF_SIZE, (void *)mp_p);
	/* 10e. flags NO_CACHE_ALIGN | NO_SPREAD (the RIB patch's layout, without NO_IOVA_CONTIG) */
	struct rte_mempool *mp_f = must(rte_mempool_create("maker_mp_flags", 1000, 40, 0, 0, NULL, NULL, NULL,
							   NULL, SOCKET,
							   RTE_MEMPOOL_F_NO_CACHE_ALIGN | RTE_MEMPOOL_F_NO_SPREAD),
					"rte_mempool_create flags");
	printf("step: rte_mempool_create maker_mp_flags n=1000 elt=40 flags=NO_CACHE_ALIGN|NO_SPREAD -> %p\n",
	       (void *)mp_f);
	/* 10f. rte_mempool_free of one (its memzones and allocations go) */
	struct rte_mempool *mp_x = must(
		rte_mempool_create("maker_mp_freed", 100, 64, 0, 0, NULL, NULL, NULL, NULL, SOCKET, 0),
		"rte_mempool_create freed");
	rte_mempool_free(mp_x);
	printf("step: rte_mempool_create+rte_mempool_free maker_mp_freed n=100 elt=64\n");

	/* 11. rte_ring_create */
	struct rte_ring *r = must(rte_ring_create("maker_ring", 1024, SOCKET, 0), "rte_ring_create");
	printf("step: rte_ring_create maker_ring count=1024 -> %p\n", (void *)r);

	/* 12. rte_hash_create */
	struct rte_hash_parameters hp = {
		.name = "maker_hash", .entries = 1024, .key_len = 16, .hash_func = rte_jhash,
		.hash_func_init_val = 0, .socket_id = SOCKET,
	};
	struct rte_hash *h = must(rte_hash_create(&hp), "rte_hash_create");
	printf("step: rte_hash_create maker_hash entries=1024 key_len=16 -> %p\n", (void *)h);

	/* 13. rte_lpm_create */
	struct rte_lpm_config lc = {.max_rules = 1024, .number_tbl8s = 256, .flags = 0};
	struct rte_lpm *lpm = must(rte_lpm_create("maker_lpm", SOCKET, &lc), "rte_lpm_create");
	printf("step: rte_lpm_create maker_lpm max_rules=1024 tbl8s=256 -> %p\n", (void *)lpm);

	/* 14. rte_fib_create, DIR24_8 with 4-byte next hops (tbl24 = 64 MiB), 256 tbl8 groups */
	struct rte_fib_conf fc;
	memset(&fc, 0, sizeof(fc));
	fc.type = RTE_FIB_DIR24_8;
	fc.default_nh = 0;
	fc.max_routes = 1024;
	fc.dir24_8.nh_sz = RTE_FIB_DIR24_8_4B;
	fc.dir24_8.num_tbl8 = 256;
	struct rte_fib *fib = must(rte_fib_create("maker_fib", SOCKET, &fc), "rte_fib_create");
	printf("step: rte_fib_create maker_fib DIR24_8 4B max_routes=1024 tbl8=256 -> %p\n", (void *)fib);

	/* 15. the view, before rte_eal_cleanup */
	fflush(stdout);
	printf("=== rte_mempool_list_dump\n");
	rte_mempool_list_dump(stdout);
	printf("=== rte_memzone_dump\n");
	rte_memzone_dump(stdout);
	printf("=== rte_malloc_dump_heaps\n");
	rte_malloc_dump_heaps(stdout);
	struct rte_malloc_socket_stats st;
	if (rte_malloc_get_socket_stats(SOCKET, &st) == 0)
		printf("=== rte_malloc_get_socket_stats(0): heap_totalsz_bytes=%zu heap_freesz_bytes=%zu "
		       "heap_allocsz_bytes=%zu greatest_free_size=%zu free_count=%u alloc_count=%u\n",
		       st.heap_totalsz_bytes, st.heap_freesz_bytes, st.heap_allocsz_bytes, st.greatest_free_size,
		       st.free_count, st.alloc_count);
	printf("=== end of view; rte_eal_cleanup writes the trace\n");
	fflush(stdout);

	rte_eal_cleanup();
	return 0;
}
