import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

/**
 * Lowers the calling thread's scheduling priority to `niceness` (0 normal, 19 lowest). On Linux
 * the nice value belongs to each thread, and the threads and processes it starts afterwards
 * inherit it; `/proc/thread-self` names the thread. Where that is not available (another OS, a
 * restricted /proc) it does nothing: the thread keeps its priority, which is only slower.
 */
export function lowerThreadPriority(niceness: number): void {
  try {
    const threadTid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (Number.isInteger(threadTid) && threadTid > 0) setPriority(threadTid, niceness)
  } catch {
    // No per-thread priority here.
  }
}
