import { mkdir, rename, rm } from 'node:fs/promises';
import { extname, join } from 'node:path';

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
