#!/usr/bin/env node
/**
 * Draws the app icon (a north-pointing navigation arrow on a blue tile) as assets/icon.svg and a
 * 512x512 assets/icon.png, from one geometry. No image libraries: the PNG is written with zlib.
 * Run: node scripts/make-icon.mjs
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'assets');
const SIZE = 512;
const RADIUS = 112;
const TOP = [0x25, 0x63, 0xeb]; // #2563eb
const BOTTOM = [0x0f, 0x17, 0x2a]; // #0f172a
const arrowLeft = [[256, 84], [256, 336], [128, 404]];
const arrowRight = [[256, 84], [384, 404], [256, 336]];
const WHITE = [0xff, 0xff, 0xff];
const SHADE = [0xcb, 0xd5, 0xe1]; // #cbd5e1

const hex = (c) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const pts = (poly) => poly.map(([x, y]) => `${x},${y}`).join(' ');
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hex(TOP)}"/><stop offset="1" stop-color="${hex(BOTTOM)}"/></linearGradient></defs>
  <rect width="${SIZE}" height="${SIZE}" rx="${RADIUS}" fill="url(#bg)"/>
  <polygon points="${pts(arrowLeft)}" fill="${hex(WHITE)}"/>
  <polygon points="${pts(arrowRight)}" fill="${hex(SHADE)}"/>
</svg>
`;

const inRoundedRect = (x, y) => {
  const cx = Math.min(Math.max(x, RADIUS), SIZE - RADIUS);
  const cy = Math.min(Math.max(y, RADIUS), SIZE - RADIUS);
  return x >= 0 && y >= 0 && x <= SIZE && y <= SIZE && (x - cx) ** 2 + (y - cy) ** 2 <= RADIUS ** 2;
};
const inPolygon = (x, y, poly) => {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};
const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t);

/** RGBA of one sample point, or undefined outside the tile. */
function sample(x, y) {
  if (!inRoundedRect(x, y)) return undefined;
  if (inPolygon(x, y, arrowLeft)) return WHITE;
  if (inPolygon(x, y, arrowRight)) return SHADE;
  return mix(TOP, BOTTOM, y / SIZE);
}

const SS = 4; // 4x4 supersampling for smooth edges
const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
for (let py = 0; py < SIZE; py++) {
  raw[py * (SIZE * 4 + 1)] = 0; // filter: none
  for (let px = 0; px < SIZE; px++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = sample(px + (sx + 0.5) / SS, py + (sy + 0.5) / SS);
        if (c) {
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
    }
    const o = py * (SIZE * 4 + 1) + 1 + px * 4;
    raw[o] = a ? Math.round(r / a) : 0;
    raw[o + 1] = a ? Math.round(g / a) : 0;
    raw[o + 2] = a ? Math.round(b / a) : 0;
    raw[o + 3] = Math.round((a / (SS * SS)) * 255);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);

writeFileSync(path.join(dir, 'icon.svg'), svg);
writeFileSync(path.join(dir, 'icon.png'), png);
console.log(`assets/icon.png ${SIZE}x${SIZE} (${png.length} bytes), assets/icon.svg`);
