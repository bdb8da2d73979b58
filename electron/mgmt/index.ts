/** The management node client (plain Node). Other modules are imported from their own files. */
export { MgmtClient } from './client';
