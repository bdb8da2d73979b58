/** Types of scripts/pack-dir.mjs for the packaging test. */
export declare function packLinuxDir(o: { electronDist: string; output: string; appDir?: string }): Promise<{ appOutDir: string; artifacts: string[] }>;
