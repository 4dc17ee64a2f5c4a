/** Hands `blob` to the browser as a download named `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  // The browser has read the URL once the click is handled; revoked a little later to be safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
