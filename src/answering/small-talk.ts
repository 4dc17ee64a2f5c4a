import { ANSWER_LANGUAGES, type AnswerLanguage, framingLanguage } from '../text/answer-language.js'
import { foldWord } from '../text/folding.js'

export type SmallTalkKind = 'thanks' | 'bye' | 'how_are_you' | 'greeting' | 'ack'

/** Words of each kind of chit-chat, folded (lower case, no diacritics); multi-word phrases are split. */
interface Vocabulary {
  readonly triggers: Readonly<Record<Exclude<SmallTalkKind, 'how_are_you'>, readonly string[]>>
  /** "How are you" phrases, as folded words separated by one space. */
  readonly howAreYou: readonly string[]
  /** Words that may accompany chit-chat without making it a question ("hello there", "thanks a lot"). */
  readonly fillers: readonly string[]
}

const VOCABULARY: Readonly<Record<AnswerLanguage, Vocabulary>> = {
  en: {
    howAreYou: [
      'how are you',
      'how are u',
      'how is it going',
      'how are things',
      'how do you do',
      'how is your day',
      'what s up',
      'how s it going',
    ],
    triggers: {
      thanks: ['thanks', 'thank', 'thx', 'ty', 'cheers', 'appreciated', 'appreciate'],
      bye: ['bye', 'goodbye', 'cya', 'farewell', 'later', 'goodnight'],
      greeting: ['hi', 'hello', 'hey', 'hiya', 'howdy', 'morning', 'afternoon', 'evening', 'greetings'],
      ack: ['ok', 'okay', 'cool', 'great', 'nice', 'perfect', 'awesome', 'got'],
    },
    fillers: [
      'you',
      'are',
      'is',
      'it',
      'a',
      'lot',
      'very',
      'much',
      'so',
      'many',
      'good',
      'there',
      'all',
      'everyone',
      'again',
      'see',
      'and',
      'the',
      'day',
      'for',
      'your',
      'help',
      'i',
      'it',
      'that',
      'thanks',
      'oh',
      'bot',
      'assistant',
      'have',
      'nice',
      'night',
      'today',
      'things',
      'well',
      'great',
      'really',
      'me',
      'my',
      'friend',
    ],
  },
  fr: {
    howAreYou: [
      'comment ca va',
      'ca va',
      'comment vas tu',
      'comment allez vous',
      'comment tu vas',
      'vous allez bien',
      'tu vas bien',
    ],
    triggers: {
      thanks: ['merci', 'remercie'],
      bye: ['revoir', 'bientot', 'adieu', 'bonne', 'nuit', 'ciao'],
      greeting: ['bonjour', 'bonsoir', 'salut', 'coucou', 'hello', 'rebonjour'],
      ack: ['ok', 'accord', 'super', 'parfait', 'genial', 'top', 'entendu'],
    },
    fillers: [
      'beaucoup',
      'bien',
      'mille',
      'fois',
      'tout',
      'le',
      'monde',
      'a',
      'au',
      'tous',
      'plus',
      'tard',
      'vous',
      'tu',
      'ca',
      'd',
      'pour',
      'ton',
      'votre',
      'aide',
      'je',
      'te',
      'et',
      'journee',
      'soiree',
      'oh',
      'tres',
      'c',
      'est',
      'cela',
    ],
  },
  de: {
    howAreYou: ['wie geht es dir', 'wie geht es ihnen', 'wie geht es', 'wie gehts', 'alles gut'],
    triggers: {
      thanks: ['danke', 'dank', 'dankeschon', 'vielen'],
      bye: ['tschuss', 'wiedersehen', 'ciao', 'bald', 'spater'],
      greeting: ['hallo', 'guten', 'morgen', 'abend', 'servus', 'moin', 'hi', 'gruss', 'grusse'],
      ack: ['ok', 'okay', 'gut', 'super', 'prima', 'toll', 'alles', 'klar'],
    },
    fillers: [
      'schon',
      'sehr',
      'tag',
      'auf',
      'bis',
      'es',
      'dir',
      'ihnen',
      'euch',
      'fur',
      'die',
      'hilfe',
      'und',
      'gott',
      'zusammen',
      'noch',
      'einen',
      'schonen',
      'mal',
    ],
  },
  es: {
    howAreYou: ['como estas', 'como esta', 'que tal', 'como va', 'como te va'],
    triggers: {
      thanks: ['gracias', 'agradezco'],
      bye: ['adios', 'luego', 'pronto', 'chao', 'hasta'],
      greeting: ['hola', 'buenos', 'buenas', 'dias', 'tardes', 'noches', 'saludos'],
      ack: ['vale', 'ok', 'genial', 'perfecto', 'bien', 'estupendo'],
    },
    fillers: ['muchas', 'mil', 'muy', 'que', 'a', 'todos', 'usted', 'tu', 'por', 'la', 'ayuda', 'y', 'te', 'lo'],
  },
  it: {
    howAreYou: ['come stai', 'come sta', 'come va', 'tutto bene'],
    triggers: {
      thanks: ['grazie', 'ringrazio'],
      bye: ['arrivederci', 'presto', 'dopo', 'addio'],
      greeting: ['ciao', 'buongiorno', 'buonasera', 'salve', 'buonanotte'],
      ack: ['ok', 'bene', 'perfetto', 'ottimo', 'benissimo'],
    },
    fillers: ['mille', 'tante', 'molte', 'a', 'tutti', 'va', 'per', 'l', 'aiuto', 'e', 'ti', 'molto', 'tutto'],
  },
  pt: {
    howAreYou: ['como esta', 'como estas', 'como vai', 'tudo bem', 'tudo bom'],
    triggers: {
      thanks: ['obrigado', 'obrigada', 'valeu', 'agradeco'],
      bye: ['tchau', 'adeus', 'logo', 'breve'],
      greeting: ['ola', 'oi', 'bom', 'boa', 'dia', 'tarde', 'noite'],
      ack: ['ok', 'otimo', 'perfeito', 'certo', 'legal'],
    },
    fillers: ['muito', 'muitissimo', 'ate', 'a', 'todos', 'voce', 'bem', 'pela', 'ajuda', 'e', 'o', 'tu'],
  },
  nl: {
    howAreYou: ['hoe gaat het', 'hoe is het', 'alles goed'],
    triggers: {
      thanks: ['dank', 'bedankt', 'dankjewel', 'dankuwel'],
      bye: ['doei', 'ziens', 'dag', 'tot'],
      greeting: ['hallo', 'hoi', 'goedemorgen', 'goedemiddag', 'goedenavond', 'hey'],
      ack: ['ok', 'oke', 'prima', 'top', 'goed', 'mooi'],
    },
    fillers: [
      'je',
      'jij',
      'u',
      'wel',
      'het',
      'met',
      'hartelijk',
      'later',
      'zeer',
      'voor',
      'de',
      'hulp',
      'allemaal',
      'en',
    ],
  },
}

const ORDER = ['thanks', 'bye', 'greeting', 'ack'] as const

const REPLIES: Readonly<Record<AnswerLanguage, Readonly<Record<SmallTalkKind, string>>>> = {
  en: {
    greeting: 'Hello! How can I help you with your documents today?',
    thanks: "You're welcome! Let me know if you have another question.",
    bye: 'Goodbye! Come back any time you have a question.',
    how_are_you: "I'm doing well, thank you! What would you like to know from your documents?",
    ack: 'Glad to help. Ask me anything about your documents.',
  },
  fr: {
    greeting: "Bonjour ! Comment puis-je vous aider avec vos documents aujourd'hui ?",
    thanks: "Avec plaisir ! N'hésitez pas si vous avez une autre question.",
    bye: 'Au revoir ! Revenez quand vous voulez si vous avez une question.',
    how_are_you: 'Je vais bien, merci ! Que souhaitez-vous savoir sur vos documents ?',
    ack: "Ravi d'aider. Posez-moi toute question sur vos documents.",
  },
  de: {
    greeting: 'Hallo! Wie kann ich Ihnen heute mit Ihren Dokumenten helfen?',
    thanks: 'Gern geschehen! Melden Sie sich, wenn Sie noch eine Frage haben.',
    bye: 'Auf Wiedersehen! Kommen Sie jederzeit mit Ihren Fragen wieder.',
    how_are_you: 'Mir geht es gut, danke! Was möchten Sie über Ihre Dokumente wissen?',
    ack: 'Gern. Fragen Sie mich alles zu Ihren Dokumenten.',
  },
  es: {
    greeting: '¡Hola! ¿En qué puedo ayudarle hoy con sus documentos?',
    thanks: '¡De nada! Dígame si tiene otra pregunta.',
    bye: '¡Adiós! Vuelva cuando tenga una pregunta.',
    how_are_you: '¡Estoy bien, gracias! ¿Qué le gustaría saber de sus documentos?',
    ack: 'Encantado de ayudar. Pregúnteme lo que quiera sobre sus documentos.',
  },
  it: {
    greeting: 'Ciao! Come posso aiutarti oggi con i tuoi documenti?',
    thanks: 'Prego! Fammi sapere se hai un’altra domanda.',
    bye: 'Arrivederci! Torna quando hai una domanda.',
    how_are_you: 'Sto bene, grazie! Cosa vorresti sapere dai tuoi documenti?',
    ack: 'Felice di aiutare. Chiedimi qualsiasi cosa sui tuoi documenti.',
  },
  pt: {
    greeting: 'Olá! Como posso ajudar hoje com os seus documentos?',
    thanks: 'De nada! Diga-me se tiver outra pergunta.',
    bye: 'Adeus! Volte sempre que tiver uma pergunta.',
    how_are_you: 'Estou bem, obrigado! O que gostaria de saber dos seus documentos?',
    ack: 'Fico feliz em ajudar. Pergunte-me o que quiser sobre os seus documentos.',
  },
  nl: {
    greeting: 'Hallo! Hoe kan ik u vandaag helpen met uw documenten?',
    thanks: 'Graag gedaan! Laat het weten als u nog een vraag heeft.',
    bye: 'Tot ziens! Kom gerust terug met uw vragen.',
    how_are_you: 'Het gaat goed, dank u! Wat wilt u weten uit uw documenten?',
    ack: 'Graag geholpen. Vraag me gerust alles over uw documenten.',
  },
}

/** Small talk recognised in a message: its kind and the language its words belong to. */
export interface SmallTalk {
  readonly kind: SmallTalkKind
  readonly language: AnswerLanguage
}

/** Longer messages are questions even when they start with a greeting. */
const MAX_WORDS = 8

function wordsOf(text: string): string[] {
  return foldWord(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
}

/** `words` without the first occurrence of `phrase` (a run of words), or undefined when absent. */
function without(words: readonly string[], phrase: readonly string[]): string[] | undefined {
  for (let start = 0; start + phrase.length <= words.length; start++) {
    if (phrase.every((word, offset) => words[start + offset] === word)) {
      return [...words.slice(0, start), ...words.slice(start + phrase.length)]
    }
  }
  return undefined
}

function classify(words: readonly string[], vocabulary: Vocabulary): SmallTalkKind | undefined {
  let rest: readonly string[] = words
  let howAreYou = false
  for (const phrase of vocabulary.howAreYou) {
    const remaining = without(rest, phrase.split(' '))
    if (remaining) {
      rest = remaining
      howAreYou = true
      break
    }
  }
  const known = new Set<string>(vocabulary.fillers)
  for (const kind of ORDER) for (const word of vocabulary.triggers[kind]) known.add(word)
  if (!rest.every((word) => known.has(word))) return undefined
  const kind = ORDER.find((k) => vocabulary.triggers[k].some((trigger) => rest.includes(trigger)))
  // A greeting with "how are you" is answered as "how are you"; thanks and goodbyes win over both.
  if (howAreYou && (kind === undefined || kind === 'greeting' || kind === 'ack')) return 'how_are_you'
  return kind
}

/**
 * Recognises chit-chat (greetings, thanks, goodbyes, "how are you", acknowledgements) in en, fr,
 * de, es, it, pt and nl: a short message (at most 8 words) made only of one language's chit-chat
 * words with at least one trigger word. Anything with a content word ("hello, what is the leave
 * policy?") is a question. `preferred` (the bot's language) breaks ties between languages.
 */
export function detectSmallTalk(message: string, preferred?: string): SmallTalk | undefined {
  const words = wordsOf(message)
  if (words.length === 0 || words.length > MAX_WORDS) return undefined
  const first = preferred ? framingLanguage(preferred) : undefined
  const languages = first ? [first, ...ANSWER_LANGUAGES.filter((code) => code !== first)] : ANSWER_LANGUAGES
  for (const language of languages) {
    const kind = classify(words, VOCABULARY[language])
    if (kind) return { kind, language }
  }
  return undefined
}

/** A short polite reply to small talk, in `language` (English when there are no words for it). */
export function smallTalkReply(kind: SmallTalkKind, language: string): string {
  return REPLIES[framingLanguage(language)][kind]
}
