import cliProgress from 'cli-progress'

/** Shows how far a phase (uploading, then processing) has got. */
export interface Progress {
  /** Starts a phase of `total` units, e.g. `begin('uploading', 40)`. */
  begin(label: string, total: number): void
  /** `done` units are finished; `detail` is a short tally such as `2 uploaded, 1 skipped`. */
  update(done: number, detail: string): void
  /** Ends the phase, leaving its final state on screen. */
  end(): void
}

/** For `--json`: the output is the summary alone. */
export const silentProgress: Progress = { begin() {}, update() {}, end() {} }

/** A bar redrawn in place, for a terminal. */
export function barProgress(stream: NodeJS.WriteStream): Progress {
  const bar = new cliProgress.SingleBar(
    { format: '{label} [{bar}] {value}/{total} {detail}', hideCursor: true, barsize: 30, stream },
    cliProgress.Presets.shades_classic,
  )
  return {
    begin: (label, total) => bar.start(total, 0, { label: label.padEnd(10), detail: '' }),
    update: (done, detail) => bar.update(done, { detail }),
    end: () => bar.stop(),
  }
}

/**
 * Plain lines for a log or a pipe: `uploading 12/40: 10 uploaded, 2 skipped`, at most one every
 * `intervalMs`, and always one when the phase ends.
 */
export function lineProgress(write: (line: string) => void, intervalMs = 2000, now = Date.now): Progress {
  let label = ''
  let total = 0
  let done = 0
  let detail = ''
  let last = 0
  const line = () => write(`${label} ${done}/${total}${detail ? `: ${detail}` : ''}`)
  return {
    begin(newLabel, newTotal) {
      label = newLabel
      total = newTotal
      done = 0
      detail = ''
      last = now()
    },
    update(newDone, newDetail) {
      done = newDone
      detail = newDetail
      if (now() - last >= intervalMs) {
        last = now()
        line()
      }
    },
    end: line,
  }
}
