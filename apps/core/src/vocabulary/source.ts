import { readFileSync, statSync } from 'node:fs';
import { parseVocabulary, VocabularyError } from './parse';
import { EMPTY_VOCABULARY, type Vocabulary } from './vocabulary';

/** How often at most the file's modification time is looked at. */
const CHECK_EVERY_MS = 1_000;

/**
 * The vocabulary of `API.VocabularyPath`, kept current: before a use, the file's modification
 * time is read (at most once a second) and a newer valid file replaces the vocabulary. An
 * invalid one is ignored, the last valid vocabulary staying in force, and `problem()` says why
 * until a valid file is loaded.
 */
export class VocabularySource {
  private vocabulary: Vocabulary = EMPTY_VOCABULARY;
  private loadedMtime = -1;
  private checkedAt = 0;
  private error: string | null = null;

  /** Reads the file once; throws a VocabularyError (or the file's error) if it is not valid. */
  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now,
  ) {
    if (path === '') return;
    const mtime = statSync(path).mtimeMs;
    this.vocabulary = parseVocabulary(readFileSync(path, 'utf8'));
    this.loadedMtime = mtime;
    this.checkedAt = this.now();
  }

  current(): Vocabulary {
    this.refresh();
    return this.vocabulary;
  }

  /** null while the file in force is the file on disk, else why the newer one is refused. */
  problem(): string | null {
    this.refresh();
    return this.error;
  }

  private refresh(): void {
    if (this.path === '' || this.now() - this.checkedAt < CHECK_EVERY_MS) return;
    this.checkedAt = this.now();
    let mtime: number;
    try {
      mtime = statSync(this.path).mtimeMs;
    } catch (err) {
      this.error = `cannot read ${this.path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`;
      return;
    }
    if (mtime === this.loadedMtime) return;
    try {
      this.vocabulary = parseVocabulary(readFileSync(this.path, 'utf8'));
      this.loadedMtime = mtime;
      this.error = null;
    } catch (err) {
      if (!(err instanceof VocabularyError) && !(err as NodeJS.ErrnoException).code) throw err;
      this.error = (err as Error).message;
    }
  }
}
