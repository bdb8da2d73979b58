import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is a plain web app: the same build runs inside Electron (file://) and in browser mode.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
});
