// SPDX-License-Identifier: AGPL-3.0-or-later
import type { BlobStore } from '@lectern/blob-store';
import { createReadStream } from 'node:fs';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

/** A task's upload directory: `<DATA_DIR>/uploads/<task_id>/` (spec 003 section 8). */
export const taskUploadDir = (dataDir: string, taskId: string): string => {
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/.test(taskId)) throw new Error(`not a task id: ${taskId}`);
  return join(dataDir, 'uploads', taskId);
};

/** The extension kept from the client's file name: lower case, letters and digits only (else none). */
export const uploadExtension = (filename: string): string => {
  const ext = extname(filename).toLowerCase();
  return /^\.[a-z0-9]{1,10}$/.test(ext) ? ext : '';
};

/** Move a received file to `<DATA_DIR>/uploads/<task_id>/original<.ext>` and return that path. */
export const keepTaskUpload = async (
  dataDir: string,
  taskId: string,
  receivedPath: string,
  filename: string,
): Promise<string> => {
  const dir = taskUploadDir(dataDir, taskId);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `original${uploadExtension(filename)}`);
  await rename(receivedPath, path);
  return path;
};

export const removeTaskUpload = (dataDir: string, taskId: string): Promise<void> =>
  rm(taskUploadDir(dataDir, taskId), { recursive: true, force: true });

/** The blob key of a task's upload (distributed mode). */
export const taskUploadBlobKey = (taskId: string, file: string): string => {
  taskUploadDir('/', taskId); // checks the id
  return `extraction/uploads/${taskId}/${basename(file)}`;
};

/**
 * Where the uploads of extraction tasks live. Embedded: `<DATA_DIR>/uploads/<task_id>/original.<ext>` (spec 003
 * section 8). Distributed (`blobs` set): also in the blob store, so the replica that runs a task — any of them —
 * fetches it into its own DATA_DIR (a cache: fetched again when missing) and no directory is shared.
 */
export class TaskUploads {
  constructor(private readonly options: { dataDir: string; blobs?: BlobStore | undefined }) {}

  /** Keep a received file for task `taskId` and return its local path (the task's `upload_path`). */
  async keep(taskId: string, receivedPath: string, filename: string): Promise<string> {
    const path = await keepTaskUpload(this.options.dataDir, taskId, receivedPath, filename);
    if (this.options.blobs) {
      try {
        await this.options.blobs.put(taskUploadBlobKey(taskId, path), createReadStream(path));
      } catch (error) {
        await removeTaskUpload(this.options.dataDir, taskId);
        throw error;
      }
    }
    return path;
  }

  /**
   * The task's upload on this machine: embedded, its `upload_path`; distributed, `<DATA_DIR>/uploads/<task_id>/`
   * of this replica, fetched from the blob store when missing. Undefined when it is nowhere (expired).
   */
  async localPath(task: { task_id: string; upload_path: string }): Promise<string | undefined> {
    const here = join(taskUploadDir(this.options.dataDir, task.task_id), basename(task.upload_path));
    // embedded: the path the task was given; distributed: only this replica's own DATA_DIR counts
    const local = this.options.blobs ? here : task.upload_path;
    if (
      await access(local).then(
        () => true,
        () => false,
      )
    )
      return local;
    if (!this.options.blobs) return undefined;
    const fetched = await this.options.blobs.download(taskUploadBlobKey(task.task_id, task.upload_path), here);
    return fetched ? here : undefined;
  }

  /** Delete the task's upload here and in the blob store. */
  async remove(taskId: string, uploadPath?: string): Promise<void> {
    await removeTaskUpload(this.options.dataDir, taskId);
    if (this.options.blobs && uploadPath) await this.options.blobs.delete(taskUploadBlobKey(taskId, uploadPath));
  }
}
