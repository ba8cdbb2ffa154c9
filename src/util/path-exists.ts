import { access } from 'node:fs/promises';

/** Whether `path` exists (any file type); false for a missing path or one we may not see. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
