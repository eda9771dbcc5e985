// The sandbox launcher. It runs as an ELF constructor, before the Go runtime starts,
// when the binary is executed as
//
//   <binary> __albert-code-sandbox SPECFD LIFEFD PATH ARGV0 ARGS...
//
// so a sandboxed command costs one extra exec of this binary and no Go start-up. It
// forks a guardian that becomes a child subreaper, and the guardian forks the command,
// which applies the restrictions of the spec (mount namespace, Landlock, seccomp) and
// execs PATH. The launcher exits with the command's status as soon as the command
// ends; the guardian stays while any descendant lives (a `server &`), and kills them
// all when told to stop (SIGTERM, SIGINT, SIGHUP) or when the agent dies (its end of
// the lifeline pipe LIFEFD closes), including descendants that left the process group.
//
// The spec, read from SPECFD, is a list of records: one operation byte, then a
// NUL-terminated argument. The Go side (spec.go) writes it; this file trusts it.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <libgen.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#define SENTINEL "__albert-code-sandbox"

// Landlock's ABI, defined here because the distribution's headers may predate the
// kernel (Debian 12's stop at ABI 2).
#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_READ_DIR (1ULL << 3)
#define LL_FS_REMOVE_DIR (1ULL << 4)
#define LL_FS_REMOVE_FILE (1ULL << 5)
#define LL_FS_MAKE_CHAR (1ULL << 6)
#define LL_FS_MAKE_DIR (1ULL << 7)
#define LL_FS_MAKE_REG (1ULL << 8)
#define LL_FS_MAKE_SOCK (1ULL << 9)
#define LL_FS_MAKE_FIFO (1ULL << 10)
#define LL_FS_MAKE_BLOCK (1ULL << 11)
#define LL_FS_MAKE_SYM (1ULL << 12)
#define LL_FS_REFER (1ULL << 13)    // ABI 2
#define LL_FS_TRUNCATE (1ULL << 14) // ABI 3
#define LL_FS_IOCTL_DEV (1ULL << 15) // ABI 5
#define LL_NET_BIND_TCP (1ULL << 0)    // ABI 4
#define LL_NET_CONNECT_TCP (1ULL << 1) // ABI 4
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) // ABI 6
#define LL_SCOPE_SIGNAL (1ULL << 1)        // ABI 6

struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct ll_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

#define FILE_RIGHTS (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV)
#define READ_RIGHTS (LL_FS_EXECUTE | LL_FS_READ_FILE | LL_FS_READ_DIR)
#define MAKE_RIGHTS (LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE | LL_FS_MAKE_CHAR | LL_FS_MAKE_DIR | \
	LL_FS_MAKE_REG | LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO | LL_FS_MAKE_BLOCK | LL_FS_MAKE_SYM | LL_FS_REFER)

// Exit statuses of the launcher itself, distinct from a command's usual ones.
#define EXIT_SETUP 125 // the sandbox could not be set up: nothing ran

// The guardian's grace between SIGTERM and SIGKILL, as the bash tool's.
#define GRACE_MS 2000

static void die(const char *what) {
	fprintf(stderr, "albert-code sandbox: %s: %s\n", what, strerror(errno));
	_exit(EXIT_SETUP);
}

static void fail(const char *msg) {
	fprintf(stderr, "albert-code sandbox: %s\n", msg);
	_exit(EXIT_SETUP);
}

struct spec {
	char *buf;
	size_t len;
	int landlock, network_off, mount_ns, pid_ns;
	const char *temp_dir; // the agent's private $TMPDIR, removed when the agent dies
};

static void read_spec(int fd, struct spec *s) {
	size_t cap = 1 << 16;
	s->buf = malloc(cap);
	s->len = 0;
	if (!s->buf) fail("out of memory reading the spec");
	for (;;) {
		if (s->len == cap) {
			cap *= 2;
			s->buf = realloc(s->buf, cap);
			if (!s->buf) fail("out of memory reading the spec");
		}
		ssize_t n = pread(fd, s->buf + s->len, cap - s->len, (off_t)s->len);
		if (n < 0 && errno == EINTR) continue;
		if (n < 0) die("read the spec");
		if (n == 0) break;
		s->len += (size_t)n;
	}
	close(fd);
	for (size_t i = 0; i < s->len;) {
		char op = s->buf[i];
		size_t n = strnlen(s->buf + i + 1, s->len - i - 1);
		if (i + 1 + n >= s->len) fail("truncated spec");
		if (op == 'L') s->landlock = 1;
		if (op == 'N') s->network_off = 1;
		if (op == 'P') s->mount_ns = 1;
		if (op == 'I') s->pid_ns = 1;
		if (op == 'T') s->temp_dir = s->buf + i + 1;
		i += n + 2;
	}
}

// --- the command's restrictions -------------------------------------------------

static long ll_abi(void) {
	return syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
}

static uint64_t ll_fs_rights(long abi) {
	uint64_t r = READ_RIGHTS | LL_FS_WRITE_FILE | (MAKE_RIGHTS & ~LL_FS_REFER);
	if (abi >= 2) r |= LL_FS_REFER;
	if (abi >= 3) r |= LL_FS_TRUNCATE;
	if (abi >= 5) r |= LL_FS_IOCTL_DEV;
	return r;
}

static void ll_rule(int ruleset, const char *path, uint64_t access, uint64_t handled) {
	int fd = open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == EACCES) return;
		die(path);
	}
	struct stat st;
	if (fstat(fd, &st) < 0) die(path);
	if (S_ISLNK(st.st_mode)) {
		close(fd); // a link grants nothing: access is checked on its target
		return;
	}
	if (!S_ISDIR(st.st_mode)) access &= FILE_RIGHTS;
	struct ll_path_beneath_attr pb = {.allowed_access = access & handled, .parent_fd = fd};
	if (pb.allowed_access && syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &pb, 0) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		die(path);
	}
	close(fd);
}

static void apply_landlock(const struct spec *s) {
	long abi = ll_abi();
	if (abi < 1) fail("Landlock is not available in this kernel");
	struct ll_ruleset_attr attr = {0};
	size_t size = offsetof(struct ll_ruleset_attr, handled_access_net);
	attr.handled_access_fs = ll_fs_rights(abi);
	if (abi >= 4) {
		size = offsetof(struct ll_ruleset_attr, scoped);
		if (s->network_off) attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
	}
	if (abi >= 6) {
		size = sizeof attr;
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
	}
	int rs = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (rs < 0) die("create the Landlock ruleset");
	uint64_t h = attr.handled_access_fs;
	for (size_t i = 0; i < s->len;) {
		char op = s->buf[i];
		const char *arg = s->buf + i + 1;
		switch (op) {
		case 'R': ll_rule(rs, arg, READ_RIGHTS, h); break;
		case 'D': ll_rule(rs, arg, LL_FS_READ_DIR, h); break;
		case 'W': ll_rule(rs, arg, h, h); break;
		case 'M': ll_rule(rs, arg, LL_FS_READ_DIR | MAKE_RIGHTS, h); break;
		case 'F': ll_rule(rs, arg, LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV, h); break;
		}
		i += strlen(arg) + 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) die("set no_new_privs");
	if (syscall(SYS_landlock_restrict_self, rs, 0) < 0) die("enforce the Landlock ruleset");
	close(rs);
}

// apply_seccomp refuses sockets of any family but AF_UNIX, and io_uring, whose
// operations would bypass the socket() check. Landlock alone covers only TCP.
static void apply_seccomp(void) {
#if defined(__x86_64__)
#define SB_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SB_ARCH AUDIT_ARCH_AARCH64
#endif
#ifdef SB_ARCH
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SB_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
		// x32 system calls reach the same kernel functions under other numbers.
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
#endif
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = sizeof f / sizeof f[0], .filter = f};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) die("set no_new_privs");
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) die("install the network filter");
#else
	fail("blocking the network needs seccomp on x86_64 or arm64");
#endif
}

static int write_file(const char *path, const char *text) {
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) return -1;
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

// unshare_private enters new namespaces (flags, which hold CLONE_NEWNS) and makes
// every mount private to them. Not root, it needs a user namespace too, where it
// maps the caller's own uid and gid, as an unprivileged process may.
static int unshare_private(int flags) {
	uid_t uid = getuid();
	gid_t gid = getgid();
	if (unshare(flags | (uid == 0 ? 0 : CLONE_NEWUSER)) < 0) return -1;
	if (uid != 0) {
		char map[64];
		snprintf(map, sizeof map, "%u %u 1", uid, uid);
		if (write_file("/proc/self/uid_map", map) < 0) return -1;
		if (write_file("/proc/self/setgroups", "deny") < 0) return -1;
		snprintf(map, sizeof map, "%u %u 1", gid, gid);
		if (write_file("/proc/self/gid_map", map) < 0) return -1;
	}
	return mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
}

// apply_mounts keeps the control files ('O' records) read-only in a private mount
// namespace, and the user's session sockets ('S') out of reach,: a bind mount of each onto itself, remounted read-only. A bind mount also
// makes the path a mount point, which cannot be renamed or removed. It needs a user
// namespace when not root; where neither works it returns -1 and Landlock and the
// after-command check remain.
static int apply_mounts(const struct spec *s, int isolated) {
	// The guardian's namespaces are the command's alone: mount there directly.
	if (!isolated && unshare_private(CLONE_NEWNS) < 0) return -1;
	for (size_t i = 0; i < s->len;) {
		char op = s->buf[i];
		const char *arg = s->buf + i + 1;
		if (op == 'S') {
			// A session's socket (ssh-agent, systemd --user, tmux...): /dev/null over
			// it, so connect() finds no socket there.
			struct stat st;
			if (lstat(arg, &st) == 0 && S_ISSOCK(st.st_mode) && mount("/dev/null", arg, NULL, MS_BIND, NULL) < 0) die(arg);
		}
		if (op == 'O' || op == 'B') {
			struct stat st;
			if (lstat(arg, &st) == 0 && !S_ISLNK(st.st_mode)) {
				if (mount(arg, arg, NULL, MS_BIND | MS_REC, NULL) < 0) die(arg);
				if (op == 'O' && mount(NULL, arg, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_REC, NULL) < 0) {
					// Unprivileged remounts must keep the flags the mount already has.
					if (mount(NULL, arg, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_REC, NULL) < 0) die(arg);
				}
			}
		}
		i += strlen(arg) + 2;
	}
	return 0;
}

// isolate_pids puts the launcher's next child, the guardian, first in a new PID
// namespace, with a mount namespace of its own where it mounts a /proc that shows
// only the command's processes: no other process's environment (the agent's keys,
// the user's shell's) can be read through /proc, and none can be signalled. It
// returns -1, changing nothing that matters, where namespaces cannot be made.
static int isolate_pids(void) {
	return unshare_private(CLONE_NEWPID | CLONE_NEWNS);
}

static void run_command(const struct spec *s, int argc, char **argv, int isolated) {
	if (s->mount_ns) apply_mounts(s, isolated);
	if (s->landlock) apply_landlock(s);
	if (s->network_off) apply_seccomp();
	(void)argc;
	execv(argv[4], argv + 5);
	int e = errno;
	fprintf(stderr, "albert-code sandbox: cannot run %s: %s\n", argv[4], strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}

// --- the guardian ---------------------------------------------------------------

// children lists the children of pid, reading every thread's children file.
static int children(pid_t pid, pid_t *out, int max) {
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d) return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.') continue;
		char cpath[96];
		snprintf(cpath, sizeof cpath, "/proc/%d/task/%s/children", pid, e->d_name);
		FILE *f = fopen(cpath, "re");
		if (!f) continue;
		int c;
		while (n < max && fscanf(f, "%d", &c) == 1) out[n++] = c;
		fclose(f);
	}
	closedir(d);
	return n;
}

// signal_tree sends sig to every descendant of pid, parents before children; a
// stopped process is continued so it can act on a SIGTERM.
static void signal_tree(pid_t pid, int sig, int depth) {
	pid_t kids[512];
	int n = children(pid, kids, 512);
	for (int i = 0; i < n; i++) {
		kill(kids[i], sig);
		if (sig != SIGKILL) kill(kids[i], SIGCONT);
		if (depth < 64) signal_tree(kids[i], sig, depth + 1);
	}
}

static long now_ms(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
	(void)st; (void)flag; (void)ftw;
	remove(path);
	return 0;
}

// remove_temp_dir removes the agent's private temporary directory once the agent
// died (kill -9 gave it no chance) and the tree is gone. Only a directory named as
// the Go side names them is touched.
static void remove_temp_dir(const char *dir) {
	if (!dir || !*dir) return;
	char copy[4096];
	snprintf(copy, sizeof copy, "%s", dir);
	if (strncmp(basename(copy), "albert-code-sandbox-", 20) != 0) return;
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

// guard runs the command and watches its tree until it is empty. statusfd receives
// the command's wait status when it ends.
static void noop(int sig) { (void)sig; }

static void guard(const struct spec *s, int argc, char **argv, int statusfd, int lifefd, int isolated) {
	if (isolated && mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		die("mount the command's own /proc");
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) die("become a subreaper");
	// First in a PID namespace, the guardian gets only the signals it handles; the
	// handlers never run (the signals are blocked and read from the signalfd).
	struct sigaction sa = {.sa_handler = noop};
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	int sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) die("signalfd");

	pid_t cmd = fork();
	if (cmd < 0) die("fork the command");
	if (cmd == 0) {
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		if (lifefd >= 0) close(lifefd);
		close(statusfd);
		run_command(s, argc, argv, isolated);
	}
	// The guardian holds none of the command's standard streams, so a reader sees
	// their end when the command's own processes close them.
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		close(null);
	}

	long kill_at = -1; // when a stop turns SIGTERM into SIGKILL
	int agent_gone = 0;
	for (;;) {
		struct pollfd p[2] = {{.fd = sfd, .events = POLLIN}, {.fd = lifefd, .events = POLLIN}};
		int timeout = kill_at < 0 ? -1 : (int)(kill_at - now_ms());
		if (kill_at >= 0 && timeout <= 0) {
			signal_tree(getpid(), SIGKILL, 0);
			kill_at = now_ms() + 100; // again, for children that were being forked
			timeout = 100;
		}
		int n = poll(p, lifefd >= 0 ? 2 : 1, timeout);
		if (n < 0 && errno != EINTR) die("poll");
		if (lifefd >= 0 && p[1].revents) {
			// The agent is gone: nobody will read the output or stop the tree.
			signal_tree(getpid(), SIGKILL, 0);
			close(lifefd);
			lifefd = -1;
			kill_at = now_ms() + 100;
			agent_gone = 1;
		}
		if (p[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof si) == sizeof si) {
				if (si.ssi_signo == SIGCHLD) continue;
				if (kill_at < 0) {
					signal_tree(getpid(), SIGTERM, 0);
					kill_at = now_ms() + GRACE_MS;
				} else {
					// A second stop: the caller's own grace is over.
					kill_at = now_ms();
				}
			}
		}
		int status;
		pid_t w;
		while ((w = waitpid(-1, &status, WNOHANG)) > 0) {
			if (w == cmd) {
				ssize_t ignored = write(statusfd, &status, sizeof status);
				(void)ignored;
				close(statusfd);
				cmd = -1;
			}
		}
		if (w < 0 && errno == ECHILD) {
			if (agent_gone) remove_temp_dir(s->temp_dir);
			_exit(0);
		}
	}
}

// --- the launcher ---------------------------------------------------------------

static void launch(int argc, char **argv) {
	if (argc < 6) fail("usage: " SENTINEL " SPECFD LIFEFD PATH ARGV0 [ARGS...]");
	int specfd = atoi(argv[2]);
	int lifefd = atoi(argv[3]);
	struct spec s = {0};
	read_spec(specfd, &s);
	if (lifefd >= 0) fcntl(lifefd, F_SETFD, FD_CLOEXEC);

	int st[2];
	if (pipe2(st, O_CLOEXEC) < 0) die("pipe");
	int isolated = s.pid_ns && isolate_pids() == 0;
	// A stop is the guardian's to carry out; the launcher waits for the status.
	// Ignored before the fork, so a stop sent at once cannot end the launcher; the
	// guardian installs its own handlers, which its command does not inherit.
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	pid_t g = fork();
	if (g < 0) die("fork the guardian");
	if (g == 0) {
		close(st[0]);
		guard(&s, argc, argv, st[1], lifefd, isolated);
	}
	close(st[1]);
	if (lifefd >= 0) close(lifefd);
	int status = 0;
	ssize_t n;
	do n = read(st[0], &status, sizeof status);
	while (n < 0 && errno == EINTR);
	if (n != sizeof status) fail("the guardian ended before the command");
	// The guardian is reaped now if the tree is already empty; otherwise it lives on,
	// reparented, until its last descendant ends.
	waitpid(g, NULL, WNOHANG);
	if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
	int sig = WTERMSIG(status);
	struct rlimit none = {0, 0};
	setrlimit(RLIMIT_CORE, &none);
	signal(sig, SIG_DFL);
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	raise(sig);
	_exit(128 + sig);
}

__attribute__((constructor)) static void albert_code_sandbox_entry(int argc, char **argv, char **envp) {
	(void)envp;
	if (argc >= 2 && argv && argv[1] && strcmp(argv[1], SENTINEL) == 0) launch(argc, argv);
}

// albert_code_landlock_abi lets the Go side probe the kernel without forking.
long albert_code_landlock_abi(void) { return ll_abi(); }
