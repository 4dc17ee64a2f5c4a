import type { ColumnSchema } from '../types.js'
import type { Check, Filter, Intent, ScalarFunction, Shape } from './intent.js'
import { type Language, statisticsWords } from './statistics-words.js'

/** The computation of an intent in plain words, English or French. */

const FUNCTIONS: Readonly<Record<Language, Readonly<Record<ScalarFunction, string>>>> = {
  en: {
    count: 'number of rows',
    count_values: 'number of filled values of',
    count_distinct: 'number of different values of',
    avg: 'average of',
    sum: 'sum of',
    median: 'median of',
    min: 'minimum of',
    max: 'maximum of',
    std: 'standard deviation of',
    range: 'range (maximum − minimum) of',
  },
  fr: {
    count: 'nombre de lignes',
    count_values: 'nombre de valeurs renseignées de',
    count_distinct: 'nombre de valeurs différentes de',
    avg: 'moyenne de',
    sum: 'somme de',
    median: 'médiane de',
    min: 'minimum de',
    max: 'maximum de',
    std: 'écart type de',
    range: 'étendue (maximum − minimum) de',
  },
}

const OPS: Readonly<Record<Language, Readonly<Record<string, string>>>> = {
  en: { '>': 'is more than', '>=': 'is at least', '<': 'is less than', '<=': 'is at most', '=': 'is', '<>': 'is not' },
  fr: {
    '>': 'est supérieur à',
    '>=': 'est au moins',
    '<': 'est inférieur à',
    '<=': 'est au plus',
    '=': 'vaut',
    '<>': 'diffère de',
  },
}

const name = (column: ColumnSchema): string => `"${column.name}"`

function filterWords(filter: Filter, lang: Language): string {
  const c = name(filter.column)
  const fr = lang === 'fr'
  switch (filter.kind) {
    case 'compare':
      return `${c} ${OPS[lang][filter.op]} ${filter.value}`
    case 'between':
      return fr ? `${c} entre ${filter.low} et ${filter.high}` : `${c} between ${filter.low} and ${filter.high}`
    case 'equals':
      return `${c} ${filter.negated ? (fr ? 'différent de' : 'is not') : '='} '${filter.value}'`
    case 'item':
      return fr
        ? `${c} ${filter.negated ? 'ne contient pas' : 'contient'} l'élément '${filter.value}'`
        : `${c} ${filter.negated ? 'does not list' : 'lists'} '${filter.value}'`
    case 'contains':
      return fr ? `${c} contient '${filter.value}'` : `${c} contains '${filter.value}'`
    case 'date':
      if (filter.op === 'between')
        return fr
          ? `${c} entre le ${filter.value} et le ${filter.high}`
          : `${c} between ${filter.value} and ${filter.high}`
      return `${c} ${OPS[lang][filter.op]} ${filter.value}`
    case 'prefix':
      return fr ? `${c} commence par '${filter.value}'` : `${c} starts with '${filter.value}'`
    case 'present':
      return fr
        ? `${c} ${filter.present ? 'est renseigné' : 'est vide'}`
        : `${c} ${filter.present ? 'is filled' : 'is empty'}`
  }
}

function filtersWords(filters: readonly Filter[], lang: Language): string {
  if (filters.length === 0) return ''
  const joined = filters.map((filter) => filterWords(filter, lang)).join(lang === 'fr' ? ' et ' : ' and ')
  return lang === 'fr' ? ` où ${joined}` : ` where ${joined}`
}

function shapeWords(shape: Shape, lang: Language): string {
  const fr = lang === 'fr'
  switch (shape.kind) {
    case 'statistics': {
      const values = statisticsWords(shape.items, shape.method, lang)
      if (!shape.group) return values
      return fr
        ? `pour chaque valeur de ${name(shape.group)} : ${values}`
        : `for each value of ${name(shape.group)}: ${values}`
    }
    case 'frequencies':
      return fr
        ? `chaque valeur de ${name(shape.column)} avec son nombre de lignes (les plus fréquentes d'abord)`
        : `each value of ${name(shape.column)} with its number of rows (most frequent first)`
    case 'scalar':
      return shape.column && shape.fn !== 'count'
        ? `${FUNCTIONS[lang][shape.fn]} ${name(shape.column)}`
        : FUNCTIONS[lang].count
    case 'mode': {
      const most = shape.direction === 'desc'
      if (fr)
        return `${shape.limit > 1 ? `les ${shape.limit} valeurs` : 'la valeur'} ${most ? 'les plus' : 'les moins'} fréquente${shape.limit > 1 ? 's' : ''} de ${name(shape.column)}`
      return `the ${shape.limit > 1 ? `${shape.limit} ` : ''}${most ? 'most' : 'least'} frequent value${shape.limit > 1 ? 's' : ''} of ${name(shape.column)}`
    }
    case 'group': {
      const metric =
        shape.measure && shape.fn !== 'count'
          ? `${FUNCTIONS[lang][shape.fn]} ${name(shape.measure)}`
          : FUNCTIONS[lang].count
      const high = shape.direction === 'desc'
      if (fr) {
        return `${shape.returnMetric ? `${metric} des` : ''} ${shape.limit > 1 ? `${shape.limit} valeurs` : 'valeur'} de ${name(shape.group)} ${high ? 'au plus grand' : 'au plus petit'} ${metric}`.trim()
      }
      return `${shape.returnMetric ? `${metric} for the` : 'the'} ${shape.limit > 1 ? `${shape.limit} ` : ''}value${shape.limit > 1 ? 's' : ''} of ${name(shape.group)} with the ${high ? 'highest' : 'lowest'} ${metric}`
    }
    case 'groupsByRows': {
      const rows = `${FUNCTIONS[lang].count} ${OPS[lang][shape.op]} ${shape.value}`
      // a count reads like the other counts ("number of rows"): a yes/no check puts "the" before it
      if (fr) return `${shape.counted ? 'nombre de valeurs' : 'les valeurs'} de ${name(shape.group)} dont le ${rows}`
      return `${shape.counted ? 'number of values' : 'the values'} of ${name(shape.group)} whose ${rows}`
    }
    case 'rows': {
      const count =
        shape.limit === null
          ? fr
            ? 'toutes les lignes'
            : 'all rows'
          : fr
            ? `${shape.limit} ligne(s)`
            : `${shape.limit} row(s)`
      const distinct = shape.distinct ? (fr ? ' (valeurs distinctes)' : ' (distinct values)') : ''
      if (!shape.order) {
        const where =
          shape.direction === 'desc' ? (fr ? 'les dernières' : 'the last') : fr ? 'les premières' : 'the first'
        return fr
          ? `${name(shape.target)}${distinct} pour ${shape.limit === null ? 'toutes les lignes' : `${where} ${count}`} dans l'ordre du fichier`
          : `${name(shape.target)}${distinct} of ${shape.limit === null ? 'all rows' : `${where} ${count}`} in file order`
      }
      const order =
        shape.direction === 'desc' ? (fr ? 'décroissant' : 'highest first') : fr ? 'croissant' : 'lowest first'
      return fr
        ? `${name(shape.target)}${distinct} des ${count} triées par ${name(shape.order)} (${order})`
        : `${name(shape.target)}${distinct} of the ${count} sorted by ${name(shape.order)} (${order})`
    }
    case 'distinct':
      return fr
        ? `les valeurs différentes de ${name(shape.column)} (ordre d'apparition)`
        : `the different values of ${name(shape.column)} (in order of appearance)`
    case 'share': {
      const cond = shape.condition.map((filter) => filterWords(filter, lang)).join(fr ? ' et ' : ' and ')
      return fr ? `pourcentage des lignes où ${cond}` : `percentage of rows where ${cond}`
    }
    case 'closest':
      return fr
        ? `${name(shape.target)} de la ligne où ${name(shape.order)} est le plus proche de ${shape.value}`
        : `${name(shape.target)} of the row where ${name(shape.order)} is closest to ${shape.value}`
  }
}

function checkWords(check: Check, core: string, intent: Intent, lang: Language): string {
  const fr = lang === 'fr'
  const where = filtersWords(intent.filters, lang)
  switch (check.kind) {
    case 'exists':
      return fr
        ? `${check.negated ? "vrai s'il n'existe aucune" : "vrai s'il existe au moins une"} ligne${where}`
        : `true if ${check.negated ? 'no row exists' : 'at least one row exists'}${where}`
    case 'compare':
      return fr
        ? `vrai si ${core}${where} ${OPS.fr[check.op]} ${check.value}`
        : `true if the ${core}${where} ${OPS.en[check.op]} ${check.value}`
    case 'all': {
      const cond = check.condition.map((filter) => filterWords(filter, lang)).join(fr ? ' et ' : ' and ')
      return fr ? `vrai si toutes les lignes${where} vérifient ${cond}` : `true if every row${where} has ${cond}`
    }
    case 'unique':
      return check.column
        ? fr
          ? `vrai si toutes les valeurs de ${name(check.column)} sont différentes`
          : `true if all values of ${name(check.column)} are different`
        : fr
          ? 'vrai'
          : 'true'
    case 'top': {
      const cond = check.condition.map((filter) => filterWords(filter, lang)).join(fr ? ' et ' : ' and ')
      const end = fr
        ? check.direction === 'desc'
          ? 'la plus grande'
          : 'la plus petite'
        : check.direction === 'desc'
          ? 'highest'
          : 'lowest'
      return fr
        ? `vrai si la ligne${where} où ${name(check.order)} a ${end} valeur vérifie ${cond}`
        : `true if the row${where} with the ${end} ${name(check.order)} has ${cond}`
    }
    case 'more': {
      const other = filtersWords(check.other, lang)
      return fr
        ? `vrai si le nombre de lignes${where} ${OPS.fr[check.op]} le nombre de lignes${other}`
        : `true if the number of rows${where} ${OPS.en[check.op]} the number of rows${other}`
    }
  }
}

export function explain(intent: Intent, language: string): string {
  const lang: Language = language.toLowerCase().startsWith('fr') ? 'fr' : 'en'
  const core = shapeWords(intent.shape, lang)
  const source = intent.table.sheet ? `${intent.table.filename} (${intent.table.sheet})` : intent.table.filename
  if (intent.check) return `${checkWords(intent.check, core, intent, lang)} — ${source}`
  return `${core}${filtersWords(intent.filters, lang)} — ${source}`
}
