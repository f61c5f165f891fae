/* gl21_immediate_glx -- legacy GL 2.1 through GLX: immediate mode
 * (glBegin/glColor3f/glVertex3f/glEnd), a display list, the matrix stack,
 * fixed-function lighting, glReadPixels checks and three swaps. */
#define APP_NAME "gl21_immediate_glx"
#include "app_common.h"
#include "app_glx.h"
#include <GL/gl.h>

enum { W = 64, H = 64, FRAMES = 3 };

static void check_px(int x, int y, int r, int g, int b, int frame)
{
    unsigned char px[4];
    glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    APP_CHECK(app_near(px, r, g, b, 3), "frame %d pixel (%d,%d) is %d,%d,%d, want %d,%d,%d",
              frame, x, y, px[0], px[1], px[2], r, g, b);
}

int main(void)
{
    app_glx_t g;
    app_glx_open(&g, W, H);
    GLXContext ctx = glXCreateNewContext(g.dpy, g.cfg, GLX_RGBA_TYPE, NULL, True);
    APP_CHECK(ctx, "glXCreateNewContext failed");
    APP_CHECK(glXMakeCurrent(g.dpy, g.win, ctx), "glXMakeCurrent failed");
    const char *version = (const char *)glGetString(GL_VERSION);
    APP_CHECK(version && (version[0] > '2' || (version[0] == '2' && version[2] >= '1')),
              "need GL 2.1, have %s", version ? version : "nothing");

    /* A display list: a unit quad in the left half, lit from the front. */
    GLuint list = glGenLists(1);
    glNewList(list, GL_COMPILE);
    glBegin(GL_QUADS);
    glNormal3f(0.0f, 0.0f, 1.0f);
    glVertex3f(-1.0f, -1.0f, 0.0f);
    glVertex3f(0.0f, -1.0f, 0.0f);
    glVertex3f(0.0f, 1.0f, 0.0f);
    glVertex3f(-1.0f, 1.0f, 0.0f);
    glEnd();
    glEndList();

    static const GLfloat light_pos[4] = {0.0f, 0.0f, 1.0f, 0.0f};
    static const GLfloat light_diffuse[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    static const GLfloat black[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    static const GLfloat mat_diffuse[4] = {0.0f, 0.0f, 1.0f, 1.0f};
    glViewport(0, 0, W, H);
    for (int f = 0; f < FRAMES; f++) {
        glClearColor(0.5f, 0.5f, 0.5f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glMatrixMode(GL_PROJECTION);
        glLoadIdentity();
        glMatrixMode(GL_MODELVIEW);
        glLoadIdentity();

        /* Lit blue quad on the left from the list. */
        glEnable(GL_LIGHTING);
        glEnable(GL_LIGHT0);
        glLightfv(GL_LIGHT0, GL_POSITION, light_pos);
        glLightfv(GL_LIGHT0, GL_DIFFUSE, light_diffuse);
        glLightfv(GL_LIGHT0, GL_AMBIENT, black);
        glLightModelfv(GL_LIGHT_MODEL_AMBIENT, black);
        glMaterialfv(GL_FRONT_AND_BACK, GL_DIFFUSE, mat_diffuse);
        glMaterialfv(GL_FRONT_AND_BACK, GL_AMBIENT, black);
        glCallList(list);
        glDisable(GL_LIGHTING);

        /* Unlit triangle on the right, rotated by 90 degrees per frame
         * about the centre of the right half (stays inside it). */
        glTranslatef(0.5f, 0.0f, 0.0f);
        glRotatef(90.0f * (float)f, 0.0f, 0.0f, 1.0f);
        glBegin(GL_TRIANGLES);
        glColor3f(1.0f, 0.0f, 0.0f);
        glVertex3f(-0.3f, -0.3f, 0.0f);
        glColor3f(1.0f, 0.0f, 0.0f);
        glVertex3f(0.3f, -0.3f, 0.0f);
        glColor3f(1.0f, 0.0f, 0.0f);
        glVertex3f(0.0f, 0.3f, 0.0f);
        glEnd();

        check_px(W / 4, H / 2, 0, 0, 255, f);      /* lit quad: full diffuse */
        check_px(3 * W / 4, H / 2, 255, 0, 0, f);  /* triangle centre */
        check_px(3 * W / 4, H - 2, 128, 128, 128, f); /* background */
        glXSwapBuffers(g.dpy, g.win);
    }
    APP_CHECK(glGetError() == GL_NO_ERROR, "GL error while drawing");
    glDeleteLists(list, 1);
    glXMakeCurrent(g.dpy, None, NULL);
    glXDestroyContext(g.dpy, ctx);
    app_glx_close(&g);
    printf("%s: ok %d frames\n", APP_NAME, FRAMES);
    return 0;
}
