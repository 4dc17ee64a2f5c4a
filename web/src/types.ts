import type { operations } from '../../src/client/index'

/** The JSON body of an operation's 200 answer, as the client generated from the OpenAPI document types it. */
type Ok<Id extends keyof operations> = operations[Id]['responses'] extends {
  200: { content: { 'application/json': infer T } }
}
  ? T
  : never

export type Bot = Ok<'listBots'>[number]
export type Chat = Ok<'listChats'>[number]
export type SentMessage = Ok<'sendMessage'>
export type Source = SentMessage['sources'][number]
/** A message as the chat's history keeps it (spec 2.6: fewer fields than an answer). */
export type StoredMessage = Ok<'listMessages'>['history'][number]
export type KbEntry = Ok<'listObjects'>[number]
export type Company = Ok<'getCompany'>
export type Usage = Ok<'getUsage'>
export type Processing = Extract<Ok<'getObject'>, { processing: unknown }>['processing']

/** A message as the console shows it: an answer just given, or one read back from the history. */
export type Message = { actor: 'user' | 'assistant'; text: string } & Partial<
  Pick<SentMessage, 'small_talk' | 'sources' | 'documents_filtered' | 'analysis'>
>
