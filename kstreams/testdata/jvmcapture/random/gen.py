# Generates random DSL programs: a line spec for the Go twin and Java code.
import random, sys
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 40
UN = ["filter", "filterNot", "mapValues", "map", "flatMap", "flatMapValues", "selectKey", "peek"]
def prog(pid):
    lines, java = [], []
    streams = []  # names of stream vars
    topics_used = set()
    tcount = [0]
    def newtopic():
        tcount[0] += 1
        return "t%d" % tcount[0]
    nops = random.randint(3, int(sys.argv[3]) if len(sys.argv) > 3 else 18)
    nstreams = random.randint(1, 3)
    for i in range(nstreams):
        ts = sorted({newtopic() for _ in range(random.randint(1, 3))})
        v = "v%d" % len(streams)
        lines.append("%s = stream %s" % (v, ",".join(ts)))
        java.append('KStream<String, String> %s = b.stream(Arrays.asList(%s));' % (v, ", ".join('"%s"' % t for t in ts)))
        streams.append(v)
    sinks = 0
    stores = 0
    for i in range(nops):
        s = random.choice(streams)
        r = random.random()
        named = ("n%d_%d" % (pid, i)) if random.random() < 0.25 else ""
        nm = (', Named.as("%s")' % named) if named else ""
        v = "v%d" % len(streams)
        if r < 0.1 and len(streams) > 1:
            other = random.choice([x for x in streams if x != s])
            lines.append("%s = merge %s %s %s" % (v, s, other, named))
            java.append("KStream<String, String> %s = %s.merge(%s%s);" % (v, s, other, nm))
            streams.append(v)
        elif r < 0.55:
            op = random.choice(UN)
            lines.append("%s = %s %s %s" % (v, op, s, named))
            body = {
                "filter": "%s.filter((k, x) -> true%s)",
                "filterNot": "%s.filterNot((k, x) -> false%s)",
                "mapValues": "%s.mapValues(x -> x%s)",
                "map": "%s.map((k, x) -> KeyValue.pair(k, x)%s)",
                "flatMap": "%s.flatMap((k, x) -> List.of(KeyValue.pair(k, x))%s)",
                "flatMapValues": "%s.flatMapValues(x -> List.of(x)%s)",
                "selectKey": "%s.selectKey((k, x) -> x%s)",
                "peek": "%s.peek((k, x) -> {}%s)",
            }[op] % (s, nm)
            java.append("KStream<String, String> %s = %s;" % (v, body))
            streams.append(v)
        elif r < 0.7:
            sinks += 1
            lines.append("to %s o%d %s" % (s, sinks, named))
            java.append('%s.to("o%d"%s);' % (s, sinks, (', Produced.as("%s")' % named) if named else ""))
        elif r < 0.75:
            lines.append("foreach %s %s" % (s, named))
            java.append("%s.foreach((k, x) -> {}%s);" % (s, nm))
        else:
            stores += 1
            kind = random.choice(["count", "count", "windowed", "session", "reduce"])
            gname = ("g%d_%d" % (pid, i)) if random.random() < 0.3 else ""
            store = ("s%d_%d" % (pid, i)) if random.random() < 0.4 else ""
            by = random.choice(["key", "key", "by"])
            anon = (not store) and random.random() < 0.3  # count(Materialized.with(...)) burns an index
            lines.append("%s = %s %s %s grouped=%s store=%s named=%s anon=%d" % (v, kind, by, s, gname, store, named, 1 if anon else 0))
            grouped = ('Grouped.as("%s")' % gname) if gname else ""
            if by == "key":
                g = "%s.groupByKey(%s)" % (s, grouped)
            else:
                g = "%s.groupBy((k, x) -> x%s)" % (s, (", " + grouped) if grouped else "")
            if store:
                mat = 'Materialized.as("%s")' % store
            elif anon:
                mat = "Materialized.with(null, null)"
            else:
                mat = ""
            if kind == "count":
                agg = "%s.count(%s)" % (g, ", ".join(x for x in [("Named.as(\"%s\")" % named) if named else "", mat] if x))
            elif kind == "reduce":
                agg = "%s.reduce((x, y) -> x%s)" % (g, "".join(", " + x for x in [("Named.as(\"%s\")" % named) if named else "", mat] if x)) if (named or mat) else "%s.reduce((x, y) -> x)" % g
                if named and not mat:
                    agg = "%s.reduce((x, y) -> x, Named.as(\"%s\"), Materialized.with(null, null))" % (g, named)
            elif kind == "windowed":
                agg = "%s.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(%s)" % (g, ", ".join(x for x in [("Named.as(\"%s\")" % named) if named else "", mat] if x))
            else:
                agg = "%s.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(10))).count(%s)" % (g, ", ".join(x for x in [("Named.as(\"%s\")" % named) if named else "", mat] if x))
            java.append("KStream<String, String> %s_s = (KStream<String, String>) (KStream) %s.toStream();" % (v, agg))
            streams.append(v + "_s")
            lines[-1] = lines[-1].replace(v + " =", v + "_s =", 1)
    return lines, java

specs = []
jprogs = []
for pid in range(N):
    l, j = prog(pid)
    specs.append(l)
    jprogs.append(j)
with open("Rand.java", "w") as f:
    f.write("""import org.apache.kafka.streams.*;
import org.apache.kafka.streams.kstream.*;
import java.time.Duration;
import java.util.*;
import java.nio.file.*;

@SuppressWarnings({"unchecked", "rawtypes"})
public class Rand {
""")
    for pid, j in enumerate(jprogs):
        f.write("    static void p%03d() throws Exception {\n        {\n            StreamsBuilder b = new StreamsBuilder();\n" % pid)
        for line in j:
            f.write("            " + line + "\n")
        f.write('            try { Files.writeString(Path.of("out/%03d.describe.txt"), b.build().describe().toString()); } catch (Exception e) { Files.writeString(Path.of("out/%03d.describe.txt"), "ERROR " + e.getMessage() + "\\n"); }\n        }\n    }\n' % (pid, pid))
    f.write("    public static void main(String[] a) throws Exception {\n        Files.createDirectories(Path.of(\"out\"));\n")
    for pid in range(len(jprogs)):
        f.write("        p%03d();\n" % pid)
    f.write("    }\n}\n")
for pid, l in enumerate(specs):
    with open("out/%03d.spec" % pid, "w") as f:
        f.write("\n".join(l) + "\n")
