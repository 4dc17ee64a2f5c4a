/**
 * The words of column headers, English and French, folded (lower case, no accents): abbreviations
 * spelled out and French subjects glossed in English.
 */

/** Header abbreviations and their words (sports, HR, admissions, medicine, sales). */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  bmi: 'body mass index',
  gre: 'graduate record exam score',
  toefl: 'english test score',
  cgpa: 'grade point average gpa',
  gpa: 'grade point average',
  sop: 'statement of purpose motivation',
  lor: 'letter of recommendation',
  pts: 'points',
  reb: 'rebounds',
  oreb: 'offensive rebounds',
  dreb: 'defensive rebounds',
  ast: 'assists',
  stl: 'steals',
  blk: 'blocks',
  tov: 'turnovers',
  pf: 'personal fouls',
  gp: 'games played',
  eff: 'efficiency',
  min: 'minutes',
  fgm: 'field goals made',
  fga: 'field goals attempted',
  fg3m: 'three pointers made',
  fg3a: 'three pointers attempted',
  ftm: 'free throws made',
  fta: 'free throws attempted',
  pct: 'percentage',
  qty: 'quantity',
  no: 'number',
  nb: 'number',
  num: 'number',
  nbr: 'number',
  id: 'identifier',
  rh: 'relative humidity',
  temp: 'temperature',
  amt: 'amount',
  avg: 'average',
  se: 'standard error deviation',
  dob: 'date of birth',
  yr: 'year',
  yrs: 'years',
  tk: 'taka price',
  sex: 'gender',
  gender: 'sex',
  charges: 'charge cost',
}

/** French words for common column subjects, looked up as their English equivalents too. */
export const FRENCH_GLOSSARY: Readonly<Record<string, string>> = {
  age: 'age',
  prix: 'price',
  pays: 'country',
  ville: 'city',
  nom: 'name',
  noms: 'names',
  annee: 'year',
  mois: 'month',
  jour: 'day',
  poids: 'weight',
  taille: 'height size',
  sexe: 'sex gender',
  genre: 'gender',
  ventes: 'sales',
  vente: 'sale',
  montant: 'amount',
  quantite: 'quantity',
  categorie: 'category',
  produit: 'product',
  produits: 'products',
  client: 'customer',
  clients: 'customers',
  magasin: 'store',
  magasins: 'stores',
  region: 'region',
  note: 'rating score',
  notes: 'ratings scores',
  salaire: 'salary income',
  revenu: 'income revenue',
  revenus: 'income revenue',
  employe: 'employee',
  employes: 'employees',
  equipe: 'team',
  equipes: 'teams',
  joueur: 'player',
  joueurs: 'players',
  auteur: 'author',
  auteurs: 'authors',
  livre: 'book',
  livres: 'books',
  commande: 'order',
  commandes: 'orders',
  statut: 'status',
  departement: 'department',
  enfants: 'children',
  taux: 'rate',
  date: 'date',
  titre: 'title',
  fumeur: 'smoker',
  frais: 'charges cost',
  depenses: 'expenses',
  chiffre: 'revenue',
  stock: 'stock',
  points: 'points',
  pages: 'pages',
}

/** The verb before a yes/no header's subject (`is_featured`, `has_garage`): not said in questions. */
export const FLAG_HEADER_VERBS = new Set(['is', 'has', 'have', 'was', 'est'])
/**
 * The asking words of a header that is a survey's question ("What is your age?"): they say how
 * it was asked, not what it holds, so they name it only beside a word that does ("What is the
 * most common number of languages" is no answer to "What is your gender?").
 */
export const ASKING_HEADER_WORDS = new Set([
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'where',
  'when',
  'why',
  'how',
  'is',
  'are',
  'was',
  'were',
  'do',
  'does',
  'did',
  'have',
  'has',
  'had',
  'you',
  'your',
  'yours',
  'i',
  'my',
  'me',
  'we',
  'our',
  'us',
  'can',
  'could',
  'would',
  'should',
  'will',
])
/** Headers of more words are sentences (a survey's question), not codes (`host_is_superhost`, `sp_defense`). */
export const LONGEST_CODE_HEADER = 3

/** Headers of identifiers: counted as different values, never summed or ranked by. */
export const ID_HEADER = /\b(id|code|serial|rownames|identifier)\b/
/** Headers of the column a "who"/"which one" question is about, on the folded, split header. */
export const ENTITY_HEADER = /\b(name|nom|title|titre|player|joueur|lifter|author|auteur|country|pays)\b/
/** A column already named as a name: "the name of …" then asks for that column, not a label. */
export const NAME_HEADER = /name|nom/i
/** The text column that labels a numeric code ("Month Name" for "Month"). */
export const LABEL_HEADER = /name|nom|label|libell/i
