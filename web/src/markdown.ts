import { Marked } from 'marked'

/**
 * Markdown as answers write it (paragraphs, lists, bold, tables, code), rendered without any HTML
 * of the answer's own: `<` is escaped before parsing, raw HTML tokens are dropped, links keep only
 * http(s) targets and images become their alt text. The Content-Security-Policy blocks inline
 * script as a second line of defence.
 */
const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html: () => '',
    image: ({ text }) => escapeHtml(text),
    link({ href, text }) {
      return /^https?:\/\//i.test(href) ? `<a href="${escapeHtml(href)}" rel="noreferrer">${text}</a>` : text
    },
  },
})

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** The answer as HTML, each `[n]` outside code a link to `citeHref(n)`. */
export function renderAnswer(text: string, citeHref: (n: number) => string): string {
  const html = marked.parse(text.replace(/&/g, '&amp;').replace(/</g, '&lt;')) as string
  // Split on code so citations are linked only in prose.
  return html
    .split(/(<pre[\s\S]*?<\/pre>|<code>[\s\S]*?<\/code>)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(
            /\[(\d+)\]/g,
            (_whole, n: string) => `<a class="cite" href="${citeHref(Number(n))}" aria-label="source ${n}">[${n}]</a>`,
          ),
    )
    .join('')
}
