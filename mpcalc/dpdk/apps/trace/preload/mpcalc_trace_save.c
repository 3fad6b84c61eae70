/* SPDX-License-Identifier: BSD-3-Clause
 *
 * mpcalc_trace_save: an LD_PRELOAD library that makes a DPDK application write its CTF trace
 * (EAL --trace=...) when it ends without rte_eal_cleanup().
 *
 * DPDK writes the trace only in rte_eal_cleanup() (rte_trace_save(), then eal_trace_fini()) or rte_exit()
 * (which calls rte_eal_cleanup()).  An application that returns from main() or calls exit() without it
 * (dpdk-test-fib), or that dies of SIGTERM/SIGINT/SIGHUP (testpmd up to v22.11.1 handles SIGTERM by
 * resetting SIG_DFL and killing itself without rte_eal_cleanup(); every testpmd dies of SIGHUP), leaves
 * no trace.  This library:
 *
 *  - at exit (a destructor, which runs after main() returns or exit() is called), calls rte_trace_save();
 *  - on SIGTERM, SIGINT and SIGHUP, when the application would die of the signal (its disposition is, or
 *    its own handler sets it back to, SIG_DFL), calls rte_trace_save(), then restores SIG_DFL and re-raises
 *    the signal, so the process still ends killed by that signal, as without this library.
 *
 * Applications keep their own handlers: signal(), bsd_signal() and sigaction() are interposed for those
 * three signals only.  The handler the application installs is what sigaction() reports back and is called
 * exactly as the kernel would call it (its flags and mask are applied); this library only wraps it.  A
 * handler that returns (l3fwd sets a flag, then leaves main() through rte_eal_cleanup()) does not save;
 * SIG_IGN is passed through untouched.
 *
 * Saving twice: rte_trace_save() returns at once when no per-thread trace buffer exists
 * (trace->nb_trace_mem_list == 0), which is the case after rte_eal_cleanup() (eal_trace_fini() ->
 * trace_mem_free() sets it to 0), before rte_eal_init() and when tracing is off: v21.11 to v26.07,
 * lib/eal/common/eal_common_trace_utils.c rte_trace_save().  So the destructor after a normal
 * rte_eal_cleanup() writes nothing.  The library saves at most once itself; a forked child never saves
 * (it would overwrite its parent's files in the same trace directory).
 *
 * Caveat: rte_trace_save() is not async-signal-safe (fopen, asprintf, a spinlock); saving from a signal
 * handler is what this library is for, but a signal that lands while the same thread holds the trace lock
 * or the malloc lock can hang the process instead of killing it.
 *
 * Build against the installed DPDK (rte_trace_save() is experimental API since 20.05):
 *   cc -O2 -shared -fPIC -DALLOW_EXPERIMENTAL_API $(pkg-config --cflags libdpdk) \
 *      -o mpcalc_trace_save.so mpcalc_trace_save.c $(pkg-config --libs libdpdk) -ldl -lpthread
 *   (pkg-config --libs libdpdk starts with -Wl,--as-needed: the library needs librte_eal only)
 * Use:
 *   LD_PRELOAD=/path/mpcalc_trace_save.so app --trace='lib\.eal\.mem.*' --trace-dir DIR ...
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#ifndef ALLOW_EXPERIMENTAL_API
#define ALLOW_EXPERIMENTAL_API
#endif

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <rte_trace.h>

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

static sigaction_fn real_sigaction;
static int saved;          /* set once the library has saved (atomic exchange) */
static int forked_child;   /* set in a child of fork(): never save */

/* The signals this library watches, and for each what the application believes is installed. */
static const int watched[] = {SIGTERM, SIGINT, SIGHUP};
static struct sigaction app_act[NSIG];
static bool managed[NSIG]; /* our wrapper is the real handler of this signal */

static bool
is_watched(int sig)
{
	for (size_t i = 0; i < sizeof(watched) / sizeof(watched[0]); i++)
		if (watched[i] == sig)
			return true;
	return false;
}

static sigaction_fn
get_real_sigaction(void)
{
	if (real_sigaction == NULL)
		real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
	return real_sigaction;
}

static void
save_once(void)
{
	if (forked_child)
		return;
	if (__atomic_exchange_n(&saved, 1, __ATOMIC_ACQ_REL))
		return;
	/* a no-op unless trace buffers exist, i.e. after rte_eal_init() and before rte_eal_cleanup() */
	rte_trace_save();
}

static void wrapper(int sig, siginfo_t *info, void *ctx);

/* Make the real disposition of sig follow the application's view app_act[sig]. */
static int
install(int sig)
{
	struct sigaction real;
	const struct sigaction *app = &app_act[sig];

	memset(&real, 0, sizeof(real));
	if (app->sa_handler == SIG_IGN) {
		managed[sig] = false;
		real = *app;
	} else {
		managed[sig] = true;
		real.sa_sigaction = wrapper;
		real.sa_flags = SA_SIGINFO;
		if (app->sa_handler != SIG_DFL) {
			/* apply the application's own mask and flags; SA_RESETHAND is emulated in wrapper() */
			real.sa_mask = app->sa_mask;
			real.sa_flags |= app->sa_flags & ~(SA_RESETHAND | SA_SIGINFO);
		} else {
			sigemptyset(&real.sa_mask);
			real.sa_flags |= SA_RESTART;
		}
	}
	return get_real_sigaction()(sig, &real, NULL);
}

static void
wrapper(int sig, siginfo_t *info, void *ctx)
{
	struct sigaction app = app_act[sig];

	if (app.sa_handler == SIG_DFL) {
		/* the process dies of this signal: save, then die of it as it would have */
		struct sigaction dfl;

		save_once();
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		get_real_sigaction()(sig, &dfl, NULL);
		managed[sig] = false;
		raise(sig); /* pending until this handler returns (sig is blocked here), then fatal */
		return;
	}
	if (app.sa_handler == SIG_IGN)
		return;
	if (app.sa_flags & SA_RESETHAND) {
		memset(&app_act[sig], 0, sizeof(app_act[sig]));
		app_act[sig].sa_handler = SIG_DFL;
		install(sig);
	}
	if (app.sa_flags & SA_SIGINFO)
		app.sa_sigaction(sig, info, ctx);
	else
		app.sa_handler(sig);
	/* If the handler reset SIG_DFL and sent itself the signal again (testpmd <= 22.11.1), it is now pending and
	 * comes back to wrapper() with app_act[sig] == SIG_DFL as soon as this returns: saved there. */
}

static void ensure_init(void);

int
sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
	sigaction_fn real = get_real_sigaction();

	if (real == NULL)
		return -1;
	if (sig <= 0 || sig >= NSIG || !is_watched(sig))
		return real(sig, act, oldact);
	ensure_init();
	/* a watched signal: the application sees and sets its own view; the real handler follows it */
	if (oldact != NULL)
		*oldact = app_act[sig];
	if (act != NULL) {
		app_act[sig] = *act;
		return install(sig);
	}
	return 0;
}

static sighandler_t
set_handler(int sig, sighandler_t handler)
{
	struct sigaction act, old;

	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	sigemptyset(&act.sa_mask);
	act.sa_flags = SA_RESTART; /* glibc's signal(): BSD semantics */
	if (sigaction(sig, &act, &old) < 0)
		return SIG_ERR;
	return old.sa_handler; /* a union with sa_sigaction */
}

sighandler_t
signal(int sig, sighandler_t handler)
{
	if (sig <= 0 || sig >= NSIG || !is_watched(sig) || handler == SIG_ERR) {
		sighandler_t (*real_signal)(int, sighandler_t) =
			(sighandler_t (*)(int, sighandler_t))dlsym(RTLD_NEXT, "signal");
		return real_signal(sig, handler);
	}
	return set_handler(sig, handler);
}

sighandler_t
bsd_signal(int sig, sighandler_t handler)
{
	return signal(sig, handler);
}

static void
in_child(void)
{
	forked_child = 1;
}

static void
ensure_init(void)
{
	static int done;
	sigaction_fn real = get_real_sigaction();

	if (real == NULL || __atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_atfork(NULL, NULL, in_child);
	for (size_t i = 0; i < sizeof(watched) / sizeof(watched[0]); i++) {
		int sig = watched[i];

		if (real(sig, NULL, &app_act[sig]) < 0)
			continue;
		/* leave SIG_IGN (nohup) alone; wrap SIG_DFL or a handler set before us */
		if (app_act[sig].sa_handler != SIG_IGN)
			install(sig);
	}
}

__attribute__((constructor)) static void
mpcalc_trace_save_init(void)
{
	ensure_init();
}

__attribute__((destructor)) static void
mpcalc_trace_save_fini(void)
{
	/* after main() returned or exit(): a no-op if rte_eal_cleanup() already saved and freed the buffers */
	save_once();
}
