/**
 * A map-like preview of a point: an equirectangular world grid (30° graticule, equator and prime
 * meridian stronger) over very coarse land outlines, with a marker at latitude/longitude and the
 * country name.
 */
import clsx from 'clsx';
import { WORLD_PATH } from './world-outline';

const W = 360;
const H = 180;
const LONS = [-150, -120, -90, -60, -30, 0, 30, 60, 90, 120, 150];
const LATS = [-60, -30, 0, 30, 60];

const num = (v: string | undefined, min: number, max: number) => {
  if (v === undefined || !/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(v.trim())) return undefined;
  const n = Number(v);
  return n >= min && n <= max ? n : undefined;
};

export function WorldPreview({ latitude, longitude, label, compact }: { latitude: string | undefined; longitude: string | undefined; label?: string | undefined; compact?: boolean }) {
  const lat = num(latitude, -90, 90);
  const lon = num(longitude, -180, 180);
  const has = lat !== undefined && lon !== undefined;
  const x = has ? lon + 180 : 0;
  const y = has ? 90 - lat : 0;
  const text = has ? `${label ? `${label}: ` : ''}${lat.toFixed(3)}°, ${lon.toFixed(3)}°` : label ? `${label}: enter latitude and longitude` : 'Enter latitude and longitude';
  return (
    <figure className={clsx('world-preview', compact && 'world-preview-compact')} data-testid="world-preview">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={has ? `Map preview: ${text}` : 'Map preview without a point'} preserveAspectRatio="xMidYMid meet">
        <rect x={0} y={0} width={W} height={H} className="world-sea" />
        <path d={WORLD_PATH} className="world-land" />
        {LONS.map((l) => (
          <line key={`lon${l}`} x1={l + 180} y1={0} x2={l + 180} y2={H} className={l === 0 ? 'world-axis' : 'world-grid'} />
        ))}
        {LATS.map((l) => (
          <line key={`lat${l}`} x1={0} y1={90 - l} x2={W} y2={90 - l} className={l === 0 ? 'world-axis' : 'world-grid'} />
        ))}
        {has ? (
          <g className="world-marker" data-testid="world-marker" data-x={x.toFixed(2)} data-y={y.toFixed(2)}>
            <line x1={x} y1={0} x2={x} y2={H} className="world-crosshair" />
            <line x1={0} y1={y} x2={W} y2={y} className="world-crosshair" />
            <circle cx={x} cy={y} r={7} className="world-halo" />
            <circle cx={x} cy={y} r={3.2} className="world-dot" />
          </g>
        ) : null}
      </svg>
      <figcaption>{text}</figcaption>
    </figure>
  );
}
