import { posix } from 'node:path'
import type { Entry, ZipFile } from 'yauzl'
import { decodeText } from '../detection/text-decoding.js'
import { ingestErrors } from '../errors.js'
import type { Block, ParsedDocument, ParseInput, Parser } from '../model.js'
import { toIngestError } from './failures.js'
import { EPUB } from './formats.js'
import { declaredHtmlCharset, htmlToBlocks } from './html.js'
import { type XmlEvent, XmlScanner } from './xml-scan.js'
import { openZipEntries, readZipEntry } from './zip-entries.js'
import { guardZip } from './zip-guard.js'

/** Content documents read as HTML; other spine items (SVG pages, DTBook) carry no text we read. */
const HTML_MEDIA_TYPES = new Set(['application/xhtml+xml', 'text/html', 'application/html'])
/** Font obfuscation (IDPF, Adobe) is not encryption of the text. */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC'])

const localName = (name: string): string => name.slice(name.lastIndexOf(':') + 1).toLowerCase()

function xmlEvents(text: string): XmlEvent[] {
  const scanner = new XmlScanner()
  return [...scanner.write(text), ...scanner.end()]
}

/** A path inside the archive from an href relative to `base` (a file's folder): decoded, without its fragment. */
function resolveHref(base: string, href: string): string {
  const path = href.split('#')[0] ?? ''
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {}
  return posix.normalize(posix.join(base, decoded)).replace(/^\/+/, '')
}

class EpubArchive {
  private constructor(
    private readonly zip: ZipFile,
    private readonly entries: ReadonlyMap<string, Entry>,
  ) {}

  static async open(path: string): Promise<EpubArchive> {
    const { zip, entries } = await openZipEntries(path)
    return new EpubArchive(zip, entries)
  }

  has(name: string): boolean {
    return this.entries.has(name)
  }

  names(): string[] {
    return [...this.entries.keys()]
  }

  async read(name: string): Promise<Buffer | null> {
    const entry = this.entries.get(name)
    if (!entry) return null
    return readZipEntry(this.zip, entry)
  }

  async readText(name: string): Promise<string | null> {
    const bytes = await this.read(name)
    return bytes ? decodeText(bytes, { declaredCharset: declaredHtmlCharset(bytes) }) : null
  }

  close(): void {
    this.zip.close()
  }
}

interface ManifestItem {
  readonly path: string
  readonly mediaType: string
  readonly properties: string
}

interface Package {
  readonly title?: string
  readonly manifest: ReadonlyMap<string, ManifestItem>
  /** Paths of the spine's content documents, in reading order. */
  readonly spine: readonly ManifestItem[]
  /** The NCX table of contents the spine names, when it names one. */
  readonly ncx?: ManifestItem
}

/** The package document's path, from META-INF/container.xml (else the first `.opf` in the archive). */
async function packagePath(archive: EpubArchive): Promise<string> {
  const container = await archive.readText('META-INF/container.xml')
  if (container) {
    const rootfiles = xmlEvents(container).filter(
      (event): event is Extract<XmlEvent, { type: 'open' }> =>
        event.type === 'open' && localName(event.name) === 'rootfile',
    )
    const opf = rootfiles.find((e) => e.attributes['media-type'] === 'application/oebps-package+xml') ?? rootfiles[0]
    const fullPath = opf?.attributes['full-path']
    if (fullPath && archive.has(resolveHref('', fullPath))) return resolveHref('', fullPath)
  }
  const found = archive.names().find((name) => name.toLowerCase().endsWith('.opf') && !name.startsWith('__MACOSX/'))
  if (!found) throw ingestErrors.corrupt('EPUB', 'no package document (META-INF/container.xml names none)')
  return found
}

function readPackage(opf: string, opfPath: string): Package {
  const base = posix.dirname(opfPath)
  const manifest = new Map<string, ManifestItem>()
  const spineIds: string[] = []
  let tocId: string | undefined
  let title: string | undefined
  let inTitle = false
  let titleText = ''
  for (const event of xmlEvents(opf)) {
    if (event.type === 'text') {
      if (inTitle) titleText += event.text
      continue
    }
    const name = localName(event.name)
    if (event.type === 'close') {
      if (name === 'title' && inTitle) {
        inTitle = false
        title ??= titleText.replace(/\s+/g, ' ').trim() || undefined
      }
      continue
    }
    const attributes = event.attributes
    if (name === 'title' && event.name.toLowerCase().startsWith('dc:') && title === undefined) {
      inTitle = true
      titleText = ''
    } else if (name === 'item' && attributes.id && attributes.href) {
      manifest.set(attributes.id, {
        path: resolveHref(base, attributes.href),
        mediaType: (attributes['media-type'] ?? '').toLowerCase(),
        properties: attributes.properties ?? '',
      })
    } else if (name === 'spine') {
      tocId = attributes.toc
    } else if (name === 'itemref' && attributes.idref) {
      spineIds.push(attributes.idref)
    }
  }
  const spine = spineIds.map((id) => manifest.get(id)).filter((item): item is ManifestItem => item !== undefined)
  const ncx =
    (tocId ? manifest.get(tocId) : undefined) ??
    [...manifest.values()].find((item) => item.mediaType === 'application/x-dtbncx+xml')
  return { manifest, spine, ...(title ? { title } : {}), ...(ncx ? { ncx } : {}) }
}

/**
 * Labels of the table of contents for whole content documents (an entry pointing into a document
 * at a fragment names a part of it, not the document): the EPUB 3 navigation document's `toc`
 * nav, else the NCX's navPoints.
 */
async function tableOfContents(archive: EpubArchive, pkg: Package): Promise<Map<string, string>> {
  const labels = new Map<string, string>()
  const add = (base: string, href: string | undefined, label: string): void => {
    const text = label.replace(/\s+/g, ' ').trim()
    if (!href || href.includes('#') || !text) return
    const path = resolveHref(base, href)
    if (!labels.has(path)) labels.set(path, text)
  }
  const nav = [...pkg.manifest.values()].find((item) => item.properties.split(/\s+/).includes('nav'))
  const navText = nav ? await archive.readText(nav.path) : null
  if (nav && navText) {
    let depth = 0
    let inToc = false
    let href: string | undefined
    let label = ''
    for (const event of xmlEvents(navText)) {
      if (event.type === 'open' && localName(event.name) === 'nav') {
        depth++
        if (!inToc && /\btoc\b/.test(event.attributes['epub:type'] ?? event.attributes.role ?? '')) inToc = true
      } else if (event.type === 'close' && localName(event.name) === 'nav') {
        depth--
        if (depth === 0) inToc = false
      } else if (inToc && event.type === 'open' && localName(event.name) === 'a') {
        href = event.attributes.href
        label = ''
      } else if (inToc && event.type === 'close' && localName(event.name) === 'a') {
        add(posix.dirname(nav.path), href, label)
        href = undefined
      } else if (inToc && event.type === 'text' && href !== undefined) {
        label += event.text
      }
    }
    if (labels.size > 0) return labels
  }
  const ncxText = pkg.ncx ? await archive.readText(pkg.ncx.path) : null
  if (pkg.ncx && ncxText) {
    // A navPoint's label comes before its content element; nested navPoints have their own.
    const stack: { label: string; inText: boolean }[] = []
    for (const event of xmlEvents(ncxText)) {
      const top = stack[stack.length - 1]
      if (event.type === 'text') {
        if (top?.inText) top.label += event.text
        continue
      }
      const name = localName(event.name)
      if (event.type === 'open' && name === 'navpoint') stack.push({ label: '', inText: false })
      else if (event.type === 'close' && name === 'navpoint') stack.pop()
      else if (top && name === 'text') top.inText = event.type === 'open' && top.label === ''
      else if (top && event.type === 'open' && name === 'content')
        add(posix.dirname(pkg.ncx.path), event.attributes.src, top.label)
    }
  }
  return labels
}

/** Resources META-INF/encryption.xml says are encrypted (font obfuscation aside). */
async function encryptedPaths(archive: EpubArchive): Promise<Set<string>> {
  const paths = new Set<string>()
  const text = await archive.readText('META-INF/encryption.xml')
  if (!text) return paths
  let algorithm = ''
  for (const event of xmlEvents(text)) {
    if (event.type !== 'open') continue
    const name = localName(event.name)
    if (name === 'encryptionmethod') algorithm = event.attributes.Algorithm ?? event.attributes.algorithm ?? ''
    else if (name === 'cipherreference' && !FONT_OBFUSCATION.has(algorithm)) {
      const uri = event.attributes.URI ?? event.attributes.uri
      if (uri) paths.add(resolveHref('', uri))
    }
  }
  return paths
}

/**
 * EPUB (2 and 3): the package document's spine gives the content documents in reading order; each
 * is read like HTML (headings, paragraphs, lists, tables). Provenance: a content document is the
 * EPUB's "page": blocks carry its position among the spine documents that have text (1, 2, …;
 * `pageCount` is their number), so `page_number` is the spine position, like a slide number, and
 * chunks end where a document ends. Chapter titles are the documents' own headings (the heading
 * path); a document with no heading before its text gets the table of contents' label for it (EPUB
 * 3 nav, else NCX) as its heading. Publishers split books their own way, so a spine document may be
 * a chapter, part of one, or several. The title is the package's `dc:title`. An EPUB whose content
 * documents are encrypted (DRM) ends "encrypted".
 */
export const epubParser: Parser = {
  mimeTypes: [EPUB],
  async parse(input: ParseInput): Promise<ParsedDocument> {
    await guardZip(input.path, input.limits, 'EPUB')
    let archive: EpubArchive | undefined
    try {
      archive = await EpubArchive.open(input.path)
      const opfPath = await packagePath(archive)
      const opf = await archive.readText(opfPath)
      if (!opf) throw ingestErrors.corrupt('EPUB', `the package document ${opfPath} is missing`)
      const pkg = readPackage(opf, opfPath)
      const documents = pkg.spine.filter(
        (item) => HTML_MEDIA_TYPES.has(item.mediaType) || (!item.mediaType && /\.(x?html?|xml)$/i.test(item.path)),
      )
      if (documents.length > input.limits.maxPages) {
        throw ingestErrors.limit(
          `the EPUB has ${documents.length} content documents, more than the limit of ${input.limits.maxPages}`,
        )
      }
      const encrypted = await encryptedPaths(archive)
      if (documents.some((item) => encrypted.has(item.path))) throw ingestErrors.encrypted('EPUB', 'DRM')
      const labels = await tableOfContents(archive, pkg)

      const blocks: Block[] = []
      let chapter = 0
      for (const [index, item] of documents.entries()) {
        const html = await archive.readText(item.path)
        const own = html ? htmlToBlocks(html).blocks : []
        input.progress(index + 1, documents.length)
        if (own.length === 0) continue
        chapter++
        const label = labels.get(item.path)
        const titled: Block[] =
          label && own[0]?.kind !== 'heading' ? [{ kind: 'heading', level: 1, text: label }, ...own] : own
        for (const block of titled) blocks.push({ ...block, page: chapter })
      }
      return {
        blocks,
        pageCount: Math.max(1, chapter),
        documentType: 'text',
        ...(pkg.title ? { title: pkg.title } : {}),
      }
    } catch (error) {
      throw toIngestError('EPUB', error)
    } finally {
      archive?.close()
    }
  },
}
