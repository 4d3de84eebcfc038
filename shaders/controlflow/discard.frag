#version 450
// OpKill (discard) under a varying condition: those lanes come back dead
// and store nothing.
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  if (x < 3.0)
    discard;
  r = int(x) * 2;
}
