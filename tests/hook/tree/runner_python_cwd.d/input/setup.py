import subprocess


def build_custom_ops():
    # comment: build_aclnn.sh is not run by this line
    subprocess.run(["bash", "build_aclnn.sh"],
                   cwd="csrc", check=True)


if __name__ == "__main__":
    build_custom_ops()
