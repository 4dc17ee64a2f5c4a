import { renderAnswer } from '../markdown'
import { t } from '../strings'
import type { Message, Source } from '../types'

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
      <div
        class="answer-text"
        // Safe: renderAnswer keeps none of the answer's own HTML (markdown.ts).
        dangerouslySetInnerHTML={{ __html: renderAnswer(message.text, (n) => `#${messageKey}-source-${n}`) }}
      />
      {message.analysis && <p class="badge">{t.chat.analysis}</p>}
      {(message.documents_filtered?.length ?? 0) > 0 && (
        <p class="hint">
          {t.chat.chosenDocuments(message.documents_filtered?.length ?? 0, [
            ...new Set(sources.filter((s) => message.documents_filtered?.includes(s.id)).map((s) => s.object_name)),
          ])}
        </p>
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
                  {source.id && (
                    <button type="button" class="link" onClick={() => onOpen(source)}>
                      {t.chat.open}
                    </button>
                  )}
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
