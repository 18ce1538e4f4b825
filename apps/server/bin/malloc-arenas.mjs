// Plain JavaScript (no tsx): bin/hangar.mjs calls it before loading anything else.
import { spawn } from "node:child_process";
import net from "node:net";

/**
 * glibc's malloc gives threads that allocate at the same time arenas of their own, up to 8 per core,
 * and keeps what is freed in them for that arena. libvips decodes on several threads (sharp's and
 * libuv's), each 12 MP picture passing tens of MB through them, so a busy pipeline ends up with every
 * arena holding its high-water mark: in bench/thumbnails 16–19 arenas held 540 MB of a 1,068 MB peak.
 * Two arenas cut the peak in half at the same throughput (sharp's documentation recommends it too).
 *
 * glibc reads MALLOC_ARENA_MAX once, when the process starts, so the processes that run the
 * pipeline (`hangar start` and `hangar work`) start themselves again with it when it is not set
 * (a value of the user's own is kept: set it to anything to skip this). The first process stays
 * as a thin parent: it passes on the signals a terminal, npm or a service manager sends it, and
 * ends as its child did (the same exit code, or the same signal). A child whose parent is gone
 * (kill -9 of the pid a supervisor knows) ends at once too, as it would have without the parent.
 */
export const ARENA_MAX = "2";

/** Set in the child: the file descriptor of a pipe whose end says that the parent is gone. */
const PARENT_FD_VAR = "HANGAR_PARENT_FD";
/** What the parent passes on; SIGKILL and SIGSTOP cannot be caught (the pipe covers the former). */
// (SIGUSR1 is Node's own: it opens the inspector of the process it is sent to.)
export const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR2"];

/** glibc only: musl and other systems have no arenas to limit. */
function onGlibc() {
  if (process.platform !== "linux") return false;
  const header = /** @type {{ glibcVersionRuntime?: string }} */ (process.report?.getReport().header ?? {});
  return Boolean(header.glibcVersionRuntime);
}

/**
 * Runs `script args` again with MALLOC_ARENA_MAX set, when it is not set yet on glibc, and answers
 * `true` in the parent (which then only waits for the child and exits as it did); `false` when this
 * process should go on itself: the variable is set already, or this is the child.
 */
export function relaunchWithArenaMax(script, args) {
  const parentFd = process.env[PARENT_FD_VAR];
  if (parentFd !== undefined) {
    delete process.env[PARENT_FD_VAR];
    watchParent(Number(parentFd));
    // This process has read it; the tools it starts (ffmpeg, PostgreSQL) get the environment as it was.
    if (process.env.MALLOC_ARENA_MAX === ARENA_MAX) delete process.env.MALLOC_ARENA_MAX;
    return false;
  }
  if (process.env.MALLOC_ARENA_MAX !== undefined || !onGlibc()) return false;

  const child = spawn(process.execPath, [...process.execArgv, script, ...args], {
    // fd 3: a pipe the child never writes to; its end tells the child that this process is gone.
    stdio: ["inherit", "inherit", "inherit", "pipe"],
    env: { ...process.env, MALLOC_ARENA_MAX: ARENA_MAX, [PARENT_FD_VAR]: "3" },
  });
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  child.on("error", (err) => {
    process.stderr.write(`Hangar could not start: ${err.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      // End by the same signal, as a shell or npm expects of a process its signal stopped.
      for (const s of FORWARDED_SIGNALS) process.removeListener(s, forward);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
  return true;
}

/** In the child: when the parent's end of the pipe closes (the parent died), end now, as it did. */
function watchParent(fd) {
  if (!Number.isInteger(fd) || fd < 0) return;
  let pipe;
  try {
    pipe = new net.Socket({ fd, readable: true, writable: false });
  } catch {
    return; // not a pipe (started by hand with the variable set): nothing to watch
  }
  const gone = () => process.kill(process.pid, "SIGKILL");
  pipe.on("end", gone);
  pipe.on("close", gone);
  pipe.on("error", gone);
  pipe.resume();
  pipe.unref(); // watching never keeps the process alive
}
