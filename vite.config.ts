import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is a plain web app: the same build runs inside Electron (northbound://app) and in browser mode.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries apart from the app: React, then everything else from node_modules, then our code.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 20 },
            { name: 'vendor', test: /node_modules/, priority: 10 },
          ],
        },
      },
    },
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
});
