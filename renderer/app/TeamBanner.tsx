/**
 * One line on every page while a joined console cannot reach its team's database (issue 25.1,
 * C-90): the views show what they last read, and this says as of when. Gone when the database
 * answers again (the `team.health` event; every view then reads fresh).
 */
import { DatabaseZap } from 'lucide-react';
import { useTeamHealth } from '../api/team';
import { useTimeFormat } from '../components/useTimeFormat';

export function TeamBanner() {
  const health = useTeamHealth().data;
  const tf = useTimeFormat();
  if (!health?.joined || health.reachable) return null;
  return (
    <div className="team-banner" role="status" data-testid="team-banner">
      <DatabaseZap size={16} aria-hidden="true" />
      <span>
        <strong>Team database unreachable</strong> —{' '}
        {health.lastReadAt ? (
          <>
            showing data as of <time dateTime={health.lastReadAt} title={tf.dateTime(health.lastReadAt)}>{tf.time(health.lastReadAt)}</time>
          </>
        ) : (
          'nothing has been read from it yet'
        )}
        .{' '}
        <span className="muted">Views answer what they last read and refresh when it is back.</span>
      </span>
    </div>
  );
}
