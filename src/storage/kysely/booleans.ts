/** Booleans are stored as 0/1 in both dialects. */
export const toFlag = (value: boolean): number => (value ? 1 : 0)
export const fromFlag = (value: number): boolean => value === 1

/** JSON text columns holding string arrays. */
export const toJsonList = (values: readonly string[]): string => JSON.stringify(values)
export const fromJsonList = (text: string): string[] => JSON.parse(text) as string[]
