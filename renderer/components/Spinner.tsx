import { LoaderCircle } from 'lucide-react';

export function Spinner({ size = 14, label }: { size?: number; label?: string }) {
  return <LoaderCircle className="spin" size={size} aria-hidden={label ? undefined : true} aria-label={label} role={label ? 'status' : undefined} />;
}
