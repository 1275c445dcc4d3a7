# Random windowed-aggregation scenarios: "kind a b c" then "key ts" lines.
#   time size advance grace | session gap grace | kv - - -
import random, sys
random.seed(int(sys.argv[1]))
for n in range(int(sys.argv[2])):
    kind = random.choice(["time", "time", "session", "session", "kv"])
    if kind == "time":
        size = random.choice([5, 10, 20])
        adv = random.choice([size, size, max(1, size // 2), max(1, size // 4)])
        head = "time %d %d %d" % (size, adv, random.choice([0, 0, 3, 10]))
    elif kind == "session":
        head = "session %d %d" % (random.choice([3, 5, 10]), random.choice([0, 0, 4, 15]))
    else:
        head = "kv"
    lines = [head]
    t = random.randint(0, 20)
    for i in range(random.randint(5, 40)):
        r = random.random()
        if r < 0.6:
            t += random.randint(0, 6)
            ts = t
        elif r < 0.9:
            ts = max(0, t - random.randint(0, 25))
        else:
            t += random.randint(10, 40)
            ts = t
        lines.append("%s %d" % (random.choice("abc"), ts))
    open("specs/%03d.spec" % n, "w").write("\n".join(lines) + "\n")
