import type { AnswerLanguage } from '../text/answer-language.js'

/** The answerer's own words, per language. */
export interface Phrases {
  /** Opens an extractive answer. */
  readonly intro: string
  /** The whole answer when the knowledge base has nothing relevant enough. */
  readonly notFound: string
}

export const PHRASES: Readonly<Record<AnswerLanguage, Phrases>> = {
  en: {
    intro: 'Here is what the knowledge base says:',
    notFound: 'The answer was not found in the knowledge base.',
  },
  fr: {
    intro: 'Voici ce que dit la base de connaissances :',
    notFound: "La réponse n'a pas été trouvée dans la base de connaissances.",
  },
  de: {
    intro: 'Das sagt die Wissensdatenbank dazu:',
    notFound: 'Die Antwort wurde in der Wissensdatenbank nicht gefunden.',
  },
  es: {
    intro: 'Esto es lo que dice la base de conocimientos:',
    notFound: 'La respuesta no se encontró en la base de conocimientos.',
  },
  it: {
    intro: 'Ecco cosa dice la base di conoscenza:',
    notFound: 'La risposta non è stata trovata nella base di conoscenza.',
  },
  pt: {
    intro: 'Eis o que diz a base de conhecimento:',
    notFound: 'A resposta não foi encontrada na base de conhecimento.',
  },
  nl: {
    intro: 'Dit zegt de kennisbank erover:',
    notFound: 'Het antwoord is niet gevonden in de kennisbank.',
  },
}
