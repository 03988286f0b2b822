import java.io.File;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import soc.extra.server.GameEventLog;
import soc.extra.server.RecordingSOCServer;
import soc.game.SOCGame;
import soc.server.SOCServer;

/**
 * Plays robot-only games on JSettlers2's recording server and writes each finished game's
 * event log to a file: the test data of sgn's JSettlers converter (see README.md here).
 *
 * Usage: java RecordGames GAMES MIX OUT_DIR [TIMEOUT_SECONDS] [--client-copies]
 *   GAMES    how many finished games to write
 *   MIX      the server's mix of robot-only games: 1 classic 4-player; 2 classic 4- and
 *            6-player, about half each; 3 the same, half of them on the sea board
 *   OUT_DIR  where the logs go: jsettlers-4p-001.soclog, jsettlers-6p-001.soclog, ...
 *            (sea board games: jsettlers-sea4p-001.soclog, ...)
 *   TIMEOUT_SECONDS  give up after this long (default 900); the games written so far stay
 *   --client-copies  also write each game as the client of seat 0 saw it, a client's log
 *                    (type=C: the messages to that player only), as -client.soclog
 *
 * The logs are the server's full logs (type=F): every message to every player, so the card
 * each player drew and the resource each robbery took are in them. The server draws its
 * boards and dice from its own random numbers: a recording is data, not reproducible.
 */
public final class RecordGames
{
    private RecordGames() {}

    public static void main(final String[] args) throws Exception
    {
        if (args.length < 3)
        {
            System.err.println("usage: java RecordGames GAMES MIX OUT_DIR [TIMEOUT_SECONDS] [--client-copies]");
            System.exit(2);
        }
        final int wanted = Integer.parseInt(args[0]);
        final String mix = args[1];
        final File outDir = new File(args[2]);
        final long timeoutMillis = 1000L * ((args.length > 3 && ! args[3].startsWith("--")) ? Long.parseLong(args[3]) : 900);
        boolean clientCopies = false;
        for (String a : args)
            if (a.equals("--client-copies"))
                clientCopies = true;
        if (! outDir.isDirectory() && ! outDir.mkdirs())
        {
            System.err.println("cannot make the folder " + outDir);
            System.exit(2);
        }

        // The recording server's own defaults, then: play `wanted` robot-only games of the mix,
        // two at a time, with the robots' pauses cut to 1% of a human's pace.
        final Properties settings = new Properties();
        settings.putAll(RecordingSOCServer.PROPS);
        settings.setProperty(SOCServer.PROP_JSETTLERS_BOTS_BOTGAMES_TOTAL, Integer.toString(wanted));
        settings.setProperty(SOCServer.PROP_JSETTLERS_BOTS_BOTGAMES_GAMETYPES, mix);
        settings.setProperty(SOCServer.PROP_JSETTLERS_BOTS_BOTGAMES_PARALLEL, "2");
        settings.setProperty(SOCServer.PROP_JSETTLERS_BOTS_BOTGAMES_WAIT__SEC, "1");
        settings.setProperty(SOCServer.PROP_JSETTLERS_BOTS_FAST__PAUSE__PERCENT, "1");
        settings.setProperty(SOCServer.PROP_JSETTLERS_STARTROBOTS, "10");

        final RecordingSOCServer server = new RecordingSOCServer(RecordingSOCServer.STRINGPORT_NAME, settings);
        server.setPriority(5);
        server.start();

        final Set<String> done = new HashSet<>();
        final int[] written = new int[4];          // 4p, 6p, sea 4p, sea 6p
        final long giveUpAt = System.currentTimeMillis() + timeoutMillis;
        while (done.size() < wanted && System.currentTimeMillis() < giveUpAt)
        {
            Thread.sleep(250);
            final List<GameEventLog> logs;
            synchronized (server.records)
            {
                logs = new ArrayList<>(server.records.values());
            }
            for (GameEventLog gameLog : logs)
            {
                final SOCGame game = gameLog.game;
                if (game == null || done.contains(game.getName()) || game.getGameState() < SOCGame.OVER)
                    continue;
                done.add(game.getName());
                final boolean sea = game.hasSeaBoard;
                final int kind = (game.maxPlayers > 4 ? 1 : 0) + (sea ? 2 : 0);
                final String stem = String.format("jsettlers-%s%dp-%03d",
                    sea ? "sea" : "", game.maxPlayers > 4 ? 6 : 4, ++written[kind]);
                try
                {
                    gameLog.save(outDir, stem + ".soclog", true, false);
                    if (clientCopies)        // what seat 0's client was sent, and nothing else
                        new GameEventLog(gameLog, 0).save(outDir, stem + "-client.soclog", true, true);
                    System.out.println("wrote " + stem + ".soclog: " + gameLog.entries.size() + " messages");
                } catch (Exception e) {
                    System.out.println("could not write " + stem + ": " + e);
                }
            }
        }
        System.out.println("finished: " + done.size() + " of " + wanted + " games written");
        System.exit(done.size() < wanted ? 1 : 0);
    }
}
