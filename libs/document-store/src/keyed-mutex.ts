// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Serialises work per key inside one process (e.g. two `ingest_document` calls for the same file and
 * application: the second waits, then finds the document already ingested). Across replicas the
 * deterministic chunk and registry ids make concurrent ingests converge on one document.
 * Hand-written: a dozen lines; the npm mutex packages add nothing for this.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
