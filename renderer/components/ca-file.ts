/**
 * A CA file picked in a form (a connection's trust, a team database's): its text, or why it is
 * refused before it is read (over MAX_CA_PEM_BYTES). The form keeps the name and the PEM; main
 * checks the PEM again (shared/model/profile.ts).
 */
import { CA_PEM_TOO_LARGE, MAX_CA_PEM_BYTES } from '../../shared/model/profile';

export async function readCaFile(file: File): Promise<{ pem: string } | { error: string }> {
  if (file.size > MAX_CA_PEM_BYTES) return { error: CA_PEM_TOO_LARGE };
  return { pem: await file.text() };
}
