import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

/**
 * Lowers the calling thread's scheduling priority to `niceness` (0 normal, 19 lowest). On Linux
 * the nice value belongs to each thread, and the threads and processes it starts afterwards
 * inherit it; `/proc/thread-self` names the thread. Returns false where that is not available
 * (another OS, a restricted /proc): the thread then keeps its priority, which is only slower.
 */
export function lowerThreadPriority(niceness: number): boolean {
  try {
    const threadTid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (!Number.isInteger(threadTid) || threadTid <= 0) return false
    setPriority(threadTid, niceness)
    return true
  } catch {
    return false
  }
}
