/**
 * The header's connection picker: the connection every page works on (name, host and session),
 * and a filterable list to choose another (cmdk: a combobox over a listbox, arrows and Enter).
 * Choosing puts it in the address and remembers it for a new window (useActiveProfile.ts).
 */
import { Link } from '@tanstack/react-router';
import { Command } from 'cmdk';
import { Check, ChevronDown, Search, Settings2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { ProfileView } from '../../shared/model/profile';
import { useProfiles, useSessions } from '../api/connections';
import { SessionBadge } from '../components/SessionBadge';
import { activePort } from '../features/connections/labels';
import { useActiveProfile, useChooseConnection } from './useActiveProfile';

const hostOf = (p: ProfileView) => `${p.host}:${activePort(p)}`;

export function ConnectionPicker() {
  const profiles = useProfiles();
  const sessions = useSessions();
  const active = useActiveProfile(profiles.data, sessions.data);
  const choose = useChooseConnection();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const popoverRef = useRef<HTMLDivElement>(null);
  const statusOf = (id: string) => sessions.data?.find((s) => s.profileId === id);

  // A click anywhere else closes the list (it holds nothing typed worth keeping).
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!popoverRef.current?.contains(t) && !buttonRef.current?.contains(t)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  if (!active) {
    return (
      <div className="connection-picker" aria-label="Connection">
        <span className="muted" data-testid="active-connection">
          No connection
        </span>
      </div>
    );
  }

  return (
    <div className="connection-picker">
      <button
        ref={buttonRef}
        type="button"
        className="picker-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        title="Choose the connection the pages work on"
        data-testid="connection-picker"
      >
        <span className="sr-only">Connection: </span>
        <span className="active-name" data-testid="active-connection">
          {active.name}
        </span>
        <span className="active-host">{hostOf(active)}</span>
        <SessionBadge status={statusOf(active.id)} testId="active-session-badge" />
        <ChevronDown size={14} aria-hidden="true" className="picker-chevron" />
      </button>
      {open ? (
        <div
          ref={popoverRef}
          className="picker-popover"
          role="dialog"
          aria-label="Choose a connection"
          data-testid="connection-picker-list"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            }
          }}
        >
          <Command label="Connections" defaultValue={active.id} loop vimBindings={false}>
            <div className="command-input">
              <Search size={14} aria-hidden="true" />
              <Command.Input autoFocus placeholder="Find a connection…" />
            </div>
            <Command.List label="Connections" className="command-list">
              <Command.Empty className="command-empty">No connection matches.</Command.Empty>
              {(profiles.data ?? []).map((p) => (
                <Command.Item
                  key={p.id}
                  value={p.id}
                  keywords={[p.name, p.host]}
                  className="command-item picker-item"
                  data-chosen={p.id === active.id || undefined}
                  onSelect={() => {
                    if (p.id !== active.id) choose(p.id);
                    close();
                  }}
                >
                  <Check size={14} aria-hidden="true" className="picker-check" />
                  <span className="picker-item-text">
                    <span className="picker-item-name">
                      {p.name}
                      {p.id === active.id ? <span className="sr-only"> (chosen)</span> : null}
                    </span>
                    <span className="active-host">{hostOf(p)}</span>
                  </span>
                  <SessionBadge status={statusOf(p.id)} testId={`picker-session-${p.name}`} />
                </Command.Item>
              ))}
            </Command.List>
          </Command>
          <div className="picker-footer">
            <Link to="/connections" search={{ tab: 'profiles' }} className="button button-small button-ghost" onClick={() => setOpen(false)}>
              <Settings2 size={14} aria-hidden="true" />
              Manage connections
            </Link>
          </div>
        </div>
      ) : null}
    </div>
  );
}
