/**
 * The words of legal forms and the article names carry (`Inc.`, `Corporation`, `plc`, `S.A.`, `GmbH`,
 * `Holdings`, `The`), folded: every organisation may carry them, so they name no one. A card adds
 * them to a short name (`Amcor` → `Amcor plc`); retrieval leaves them out of a document's subjects
 * ("the company" in a question must not point at the one subject called "… Company").
 */
export const LEGAL_FORM_WORDS: ReadonlySet<string> = new Set([
  'the',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'companies',
  'ltd',
  'limited',
  'llc',
  'llp',
  'lp',
  'plc',
  'group',
  'holding',
  'holdings',
  'international',
  'ag',
  'se',
  'sa',
  'spa',
  'srl',
  'sas',
  'sarl',
  'kg',
  'nv',
  'bv',
  'gmbh',
  // The letters of `S.A.`, `N.V.` read one by one.
  's',
  'a',
  'n',
  'v',
])
