import type { ComponentChildren } from 'preact'
import { t } from '../strings'
import type { Message, Source } from '../types'

/** The answer's text with each `[n]` made a link to its source. */
function withCitations(text: string, messageKey: string): ComponentChildren[] {
  const parts: ComponentChildren[] = []
  let last = 0
  for (const match of text.matchAll(/\[(\d+)\]/g)) {
    const index = match.index ?? 0
    parts.push(text.slice(last, index))
    parts.push(
      <a class="cite" href={`#${messageKey}-source-${match[1]}`} aria-label={`source ${match[1]}`}>
        [{match[1]}]
      </a>,
    )
    last = index + match[0].length
  }
  parts.push(text.slice(last))
  return parts
}

function where(source: Source): string {
  if (source.page_number) return t.chat.page(source.page_number)
  if (source.row_idx) return t.chat.rows(source.row_idx)
  return ''
}

/** One message; an answer shows its sources, each with its place, quote and score. */
export function MessageView(props: { message: Message; messageKey: string; onOpen: (source: Source) => void }) {
  const { message, messageKey, onOpen } = props
  if (message.actor === 'user') {
    return (
      <article class="message user" aria-label={t.chat.you}>
        <p>{message.text}</p>
      </article>
    )
  }
  const sources = message.sources ?? []
  return (
    <article class="message assistant" aria-label={t.chat.assistant}>
      {message.small_talk && <p class="badge">{t.chat.smallTalk}</p>}
      <div class="answer-text">{withCitations(message.text, messageKey)}</div>
      {message.analysis && (
        <details class="analysis">
          <summary>SQL</summary>
          <pre>{message.analysis.plan}</pre>
        </details>
      )}
      {!message.small_talk && (
        <section class="sources" aria-label={t.chat.sources}>
          <h3>{t.chat.sources}</h3>
          {sources.length === 0 && <p class="hint">{t.chat.noSources}</p>}
          <ol>
            {sources.map((source, i) => (
              <li id={`${messageKey}-source-${i + 1}`} key={`${source.id}-${source.chunk_idx}`}>
                <div class="source-head">
                  <span class="source-name">{source.object_name}</span>
                  <span class="source-where">{where(source)}</span>
                  <span class="source-score">{t.chat.score(source.usage_score)}</span>
                  <button type="button" class="link" onClick={() => onOpen(source)}>
                    {t.chat.open}
                  </button>
                </div>
                {source.chunk_content && <blockquote>{source.chunk_content.slice(0, 600)}</blockquote>}
              </li>
            ))}
          </ol>
        </section>
      )}
    </article>
  )
}
