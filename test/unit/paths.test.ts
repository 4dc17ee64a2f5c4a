import { describe, expect, it } from 'vitest'
import {
  ancestorFolders,
  normalizeFileName,
  normalizeFilePath,
  normalizeFolderPath,
  splitPath,
} from '../../src/domain/knowledge-base/paths.js'
import { AppError } from '../../src/lib/errors.js'

function codeOf(run: () => unknown): string | undefined {
  try {
    run()
    return undefined
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError'
  }
}

describe('knowledge-base paths (DESIGN §4)', () => {
  it.each([
    ['/', '/'],
    ['', '/'],
    ['hr', '/hr/'],
    ['/hr/policies', '/hr/policies/'],
    ['hr/policies/', '/hr/policies/'],
    ['/Café/', '/Café/'],
  ])('canonicalises folder %j as %j', (input, folder) => {
    expect(normalizeFolderPath(input)).toBe(folder)
  })

  it('normalises to NFC, so composed and decomposed names are one folder', () => {
    expect(normalizeFolderPath('/Cafe\u0301')).toBe(normalizeFolderPath('/Caf\u00e9'))
    expect(normalizeFolderPath('/Cafe\u0301')).toBe('/Caf\u00e9/')
  })

  it.each([
    ['/hr/leave.pdf', '/hr/leave.pdf'],
    ['hr/leave.pdf', '/hr/leave.pdf'],
    ['/a b/c (1).txt', '/a b/c (1).txt'],
  ])('canonicalises file %j as %j', (input, file) => {
    expect(normalizeFilePath(input)).toBe(file)
  })

  it.each([
    ['..', '/hr/../etc/'],
    ['.', '/hr/./x'],
    ['empty segment', '/hr//x'],
    ['backslash', '/hr\\x'],
    ['control character', '/hr/\u0007x'],
    ['C1 control', '/hr/\u0085x'],
    ['segment over 255 bytes', `/${'é'.repeat(128)}`],
    ['path over 1024 bytes', `/${'a/'.repeat(520)}`],
  ])('rejects a folder path with %s as invalid_path', (_name, input) => {
    expect(codeOf(() => normalizeFolderPath(input))).toBe('invalid_path')
  })

  it('rejects file paths that end with / or name no file', () => {
    expect(codeOf(() => normalizeFilePath('/hr/'))).toBe('invalid_path')
    expect(codeOf(() => normalizeFilePath(''))).toBe('invalid_path')
  })

  it('accepts a plain file name and rejects one with a slash or nothing in it', () => {
    expect(normalizeFileName('leave.pdf')).toBe('leave.pdf')
    expect(codeOf(() => normalizeFileName('a/b.pdf'))).toBe('invalid_path')
    expect(codeOf(() => normalizeFileName(''))).toBe('invalid_path')
    expect(codeOf(() => normalizeFileName('..'))).toBe('invalid_path')
  })

  it('names the field in the error', () => {
    try {
      normalizeFolderPath('/a/../b', 'filters.paths[0]')
      expect.unreachable()
    } catch (error) {
      expect((error as AppError).fieldErrors[0]?.path).toBe('filters.paths[0]')
    }
  })

  it('splits a path into parent folder and name', () => {
    expect(splitPath('/a/b.pdf')).toEqual({ parent: '/a/', name: 'b.pdf' })
    expect(splitPath('/a/b/')).toEqual({ parent: '/a/', name: 'b' })
    expect(splitPath('/top.txt')).toEqual({ parent: '/', name: 'top.txt' })
  })

  it('lists ancestor folders outermost first, without the root or the path itself', () => {
    expect(ancestorFolders('/a/b/c.pdf')).toEqual(['/a/', '/a/b/'])
    expect(ancestorFolders('/a/b/')).toEqual(['/a/'])
    expect(ancestorFolders('/top.txt')).toEqual([])
    expect(ancestorFolders('/')).toEqual([])
  })
})
